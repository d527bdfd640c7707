// A bare SDK client that serves fs/read_text_file straight from disk (fs.readFile, utf8; a ranged
// read streams the file only up to its last line) and drives
// read-agent.mjs exactly as the extension does. Used by bare-client.mjs (plain Node) and by
// extBench.ts (the same client inside the extension host, in rounds interleaved with the
// extension's, so both see the same machine load).
import { spawn } from 'node:child_process';
import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** Starts read-agent.mjs under a bare client. `reads(file, n)` → { ms: number[], chars }. */
export async function startBare({ node, agentPath, cwd }) {
  const child = spawn(node, [agentPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  let last = '';
  const conn = acp.client({ name: 'bare' })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => ({
      content: params.line || params.limit != null ? await readLines(params.path, params.line ?? 1, params.limit) : await fsp.readFile(params.path, 'utf8'),
    }))
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') last = params.update.content.text;
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  const agent = conn.agent;
  const close = () => {
    conn.close();
    child.stdin.end();
    setTimeout(() => child.kill(), 1000).unref();
  };
  try {
    await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false } },
    });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const reads = async (file, n, range = {}) => {
      last = '';
      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: JSON.stringify({ path: file, n, ...range }) }] });
      await new Promise(r => setImmediate(r));
      const m = /^BENCH (.*)$/s.exec(last);
      if (!m) throw new Error(`no BENCH result for ${file}: ${last.slice(0, 200)}`);
      return JSON.parse(m[1]);
    };
    return { reads, close };
  } catch (e) {
    close();
    throw e;
  }
}

/** { [file]: { ms, chars } } for `rounds` × `n` reads of each file, after 3 warm-up reads. */
export async function measureBare({ node, agentPath, rounds, n, files }) {
  const bare = await startBare({ node, agentPath, cwd: path.dirname(files[0]) });
  try {
    const out = {};
    for (const file of files) {
      await bare.reads(file, 3);
      out[file] = { ms: [], chars: 0 };
      for (let r = 0; r < rounds; r++) {
        const res = await bare.reads(file, n);
        out[file].ms.push(...res.ms);
        out[file].chars = res.chars;
      }
    }
    return out;
  } finally {
    bare.close();
  }
}

/** Lines `line`… (`limit` of them) of a UTF-8 file, reading only as far as they go (the least a reader can do). */
async function readLines(file, line, limit) {
  const want = limit == null ? Infinity : line - 1 + limit;
  const chunks = [];
  let lines = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) {
    chunks.push(chunk);
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    if (lines >= want) break;
  }
  const all = Buffer.concat(chunks).toString('utf8').split(/(?<=\n)/);
  return all.slice(line - 1, line - 1 + (limit ?? all.length)).join('');
}
