#!/usr/bin/env node
// The baseline of the fs-read benchmark: a bare SDK client that serves fs/read_text_file straight
// from disk (fs.readFile, utf8), driving read-agent.mjs exactly as the extension does.
// Usage: node bare-client.mjs <rounds> <n> <file>…   → prints {"<file>": [ms, …], …} as JSON.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';

const [rounds, n, ...files] = process.argv.slice(2);
const agentPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'read-agent.mjs');
const child = spawn(process.execPath, [agentPath], { stdio: ['pipe', 'pipe', 'inherit'] });
let last = '';
const conn = acp.client({ name: 'bare' })
  .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => ({ content: await fsp.readFile(params.path, 'utf8') }))
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') last = params.update.content.text;
  })
  .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const agent = conn.agent;
await agent.request(acp.methods.agent.initialize, {
  protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false } },
});
const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: path.dirname(files[0]), mcpServers: [] });

async function reads(file, count) {
  last = '';
  await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: JSON.stringify({ path: file, n: count }) }] });
  await new Promise(r => setImmediate(r));
  const m = /^BENCH (.*)$/s.exec(last);
  if (!m) throw new Error(`no BENCH result for ${file}: ${last.slice(0, 200)}`);
  return JSON.parse(m[1]);
}

const out = {};
for (const file of files) {
  await reads(file, 3); // warm-up
  out[file] = { ms: [], chars: 0 };
  for (let r = 0; r < Number(rounds); r++) {
    const res = await reads(file, Number(n));
    out[file].ms.push(...res.ms);
    out[file].chars = res.chars;
  }
}
process.stdout.write(JSON.stringify(out) + '\n');
conn.close();
child.stdin.end();
setTimeout(() => child.kill(), 1000).unref();
