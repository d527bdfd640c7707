#!/usr/bin/env node
// The agent side of the terminal benchmark: a minimal ACP agent whose prompt is JSON
//   {"command": "...", "limit": 1048576, "n": 1, "card": true, "out": "/abs/result.json"}
// For each of n runs it times, from its own side, the whole flow an agent waits for:
//   terminal/create → (card: a tool call showing the terminal, as agents embed it) →
//   terminal/wait_for_exit → terminal/output → terminal/release
// (first request sent → release's answer parsed, the 1 MB answer's JSON parsing included).
// It writes {"ms":[…], "steps" (the last run's create, wait_for_exit, output, release), "outputBytes", "truncated", "exitCode"} to `out` and ends the turn.
// Both sides of the benchmark (Switchboard and the bare SDK client, bareClient.mjs) talk to this program.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const app = acp.agent({ name: 'terminal-bench' })
  .onRequest('initialize', () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, agentInfo: { name: 'terminal-bench', version: '1.0.0' } }))
  .onRequest('session/new', () => ({ sessionId: 'bench-1' }))
  .onNotification('session/cancel', () => {})
  .onRequest('session/prompt', async ({ params, client }) => {
    const job = JSON.parse(params.prompt.filter(b => b.type === 'text').map(b => b.text).join(''));
    const { sessionId } = params;
    const ms = [];
    let steps = [];
    let last = {};
    for (let i = 0; i < (job.n ?? 1); i++) {
      const toolCallId = `bench-${Date.now()}-${i}`;
      const t = performance.now();
      const { terminalId } = await client.request('terminal/create', { sessionId, command: job.command, outputByteLimit: job.limit });
      const t1 = performance.now();
      const ids = { sessionId, terminalId };
      if (job.card) {
        await client.notify('session/update', {
          sessionId, update: { sessionUpdate: 'tool_call', toolCallId, title: job.command, kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] },
        });
      }
      const exit = await client.request('terminal/wait_for_exit', ids);
      const t2 = performance.now();
      const out = await client.request('terminal/output', ids);
      const t3 = performance.now();
      await client.request('terminal/release', ids);
      const t4 = performance.now();
      ms.push(t4 - t);
      steps = [t1 - t, t2 - t1, t3 - t2, t4 - t3];
      if (job.card) {
        await client.notify('session/update', {
          sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId, status: exit.exitCode === 0 ? 'completed' : 'failed' },
        });
      }
      last = { outputBytes: Buffer.byteLength(out.output), truncated: out.truncated, exitCode: exit.exitCode ?? null };
    }
    fs.writeFileSync(job.out, JSON.stringify({ ms, steps, ...last }));
    return { stopReason: 'end_turn' };
  });

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
process.exit(0);
