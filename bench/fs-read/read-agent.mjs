#!/usr/bin/env node
// The agent side of the fs-read benchmark: a minimal ACP agent whose prompt is JSON:
//   {"path": "/abs/file", "n": 20, "line"?: 1000, "limit"?: 50, "touch"?: true, "fresh"?: k}  n sequential
//       fs/read_text_file, each round trip timed (request sent → response parsed); `touch`: the
//       file's times are set to now before each read (not timed), so nothing can be served from a
//       cache; `fresh`: read i is of `<path>.<k + i>` (hard links to the file, made beforehand);
//   {"op": "write", "path": "/abs/file", "n": 5}  n sequential fs/write_text_file (each a new text);
//   {"op": "permission", "n": 5}  n sequential session/request_permission.
// For writes and permissions it records when each answer arrived (epoch ms, performance.timeOrigin
// + now: comparable with the extension host's clock on the same machine). It answers with one
// message chunk `BENCH {"ms":[…],"chars":…}` or `BENCH {"answeredAt":[…]}`.
// Both sides of the benchmark talk to this same program.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const epochNow = () => performance.timeOrigin + performance.now();

const app = acp.agent({ name: 'fs-read-bench' })
  .onRequest('initialize', () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, agentInfo: { name: 'fs-read-bench', version: '1.0.0' } }))
  .onRequest('session/new', () => ({ sessionId: 'bench-1' }))
  .onNotification('session/cancel', () => {})
  .onRequest('session/prompt', async ({ params, client }) => {
    const job = JSON.parse(params.prompt.filter(b => b.type === 'text').map(b => b.text).join(''));
    const { path, n } = job;
    let result;
    if (job.op === 'write') {
      const answeredAt = [];
      for (let i = 0; i < n; i++) {
        await client.request('fs/write_text_file', { sessionId: params.sessionId, path, content: `write ${i} ${Date.now()}\n`.repeat(20) });
        answeredAt.push(epochNow());
      }
      result = { answeredAt };
    } else if (job.op === 'permission') {
      const answeredAt = [];
      for (let i = 0; i < n; i++) {
        await client.request('session/request_permission', {
          sessionId: params.sessionId,
          toolCall: { toolCallId: `p${Date.now()}-${i}`, title: `Bench permission ${i}`, kind: 'execute', status: 'pending' },
          options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }],
        });
        answeredAt.push(epochNow());
      }
      result = { answeredAt };
    } else {
      const ms = [];
      let chars = 0;
      for (let i = 0; i < n; i++) {
        // `touch`: the file's times change before each read (untimed), so no reader can serve it from a cache.
        if (job.touch) { const now = new Date(); fs.utimesSync(path, now, now); }
        // `fresh`: read i of the job reads `<path>.<fresh + i>`, a hard link made beforehand: a path never read before.
        const at = job.fresh === undefined ? path : `${path}.${job.fresh + i}`;
        const t = performance.now();
        const { content } = await client.request('fs/read_text_file', { sessionId: params.sessionId, path: at, line: job.line, limit: job.limit });
        ms.push(performance.now() - t);
        chars = content.length;
      }
      result = { ms, chars };
    }
    await client.notify('session/update', {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `BENCH ${JSON.stringify(result)}` } },
    });
    return { stopReason: 'end_turn' };
  });

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
process.exit(0);
