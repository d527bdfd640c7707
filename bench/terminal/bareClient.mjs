// A bare SDK client that serves terminal/* with a plain child process — spawn the command through
// the shell, keep the last `outputByteLimit` bytes of stdout and stderr in a trimmed chunk list,
// answer output with them (cut at a UTF-8 character start), kill on release if still running —
// and drives terminal-agent.mjs exactly as Switchboard does. Used by host.cjs inside the extension
// host, in rounds alternating with Switchboard's, so both see the same machine load.
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** Starts terminal-agent.mjs under a bare client. `run(job)` sends one prompt; resolves when the turn ended. */
export async function startBare({ node, agentPath, cwd, shell }) {
  const agentProc = spawn(node, [agentPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const terminals = new Map();
  let nextId = 1;
  const get = (id) => {
    const t = terminals.get(id);
    if (!t) throw new acp.RequestError(-32002, `Unknown terminal: ${id}`);
    return t;
  };
  const conn = acp.client({ name: 'bare' })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      const limit = params.outputByteLimit ?? 1024 * 1024;
      const child = spawn(shell, ['-c', params.command], { cwd: params.cwd ?? cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      const t = { child, limit, chunks: [], kept: 0, truncated: false, status: undefined };
      const onData = (c) => {
        t.chunks.push(c);
        t.kept += c.length;
        while (t.kept - t.chunks[0].length >= limit) { t.kept -= t.chunks.shift().length; t.truncated = true; }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      t.exited = new Promise(resolve => child.on('close', (code, signal) => { t.status = { exitCode: code, signal }; resolve(t.status); }));
      const terminalId = `t${nextId++}`;
      terminals.set(terminalId, t);
      return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('spawn', () => resolve({ terminalId }));
      });
    })
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => get(params.terminalId).exited)
    .onRequest(acp.methods.client.terminal.output, ({ params }) => {
      const t = get(params.terminalId);
      let buf = Buffer.concat(t.chunks);
      const limit = t.limit;
      let truncated = t.truncated;
      if (buf.length > limit) {
        let start = buf.length - limit;
        while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
        buf = buf.subarray(start);
        truncated = true;
      }
      return { output: buf.toString('utf8'), truncated, ...(t.status ? { exitStatus: t.status } : {}) };
    })
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => { get(params.terminalId).child.kill(); return {}; })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      const t = get(params.terminalId);
      if (!t.status) t.child.kill();
      terminals.delete(params.terminalId);
      return {};
    })
    .onNotification(acp.methods.client.session.update, () => {})
    .connect(acp.ndJsonStream(Writable.toWeb(agentProc.stdin), Readable.toWeb(agentProc.stdout)));
  const agent = conn.agent;
  const close = () => {
    conn.close();
    agentProc.stdin.end();
    setTimeout(() => agentProc.kill(), 1000).unref();
  };
  try {
    await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { terminal: true },
    });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const run = (job) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: JSON.stringify(job) }] });
    return { run, close };
  } catch (e) {
    close();
    throw e;
  }
}
