// A bare SDK client that serves fs/read_text_file straight from disk (fs.readFile, utf8) and drives
// read-agent.mjs exactly as the extension does. Used by bare-client.mjs (plain Node) and by
// extBench.ts (the same client inside the extension host, in rounds interleaved with the
// extension's, so both see the same machine load).
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** Starts read-agent.mjs under a bare client. `reads(file, n)` → { ms: number[], chars }. */
export async function startBare({ node, agentPath, cwd }) {
  const child = spawn(node, [agentPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  let last = '';
  const conn = acp.client({ name: 'bare' })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => ({ content: await fsp.readFile(params.path, 'utf8') }))
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
    const reads = async (file, n) => {
      last = '';
      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: JSON.stringify({ path: file, n }) }] });
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
