#!/usr/bin/env node
// The agent side of the fs-read benchmark: a minimal ACP agent whose prompt is
// {"path": "/abs/file", "n": 20}. It issues n sequential fs/read_text_file requests, times each
// round trip (request sent → response parsed) and answers with one message chunk
// `BENCH {"ms":[…],"chars":…}`. Both sides of the benchmark talk to this same program.
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const app = acp.agent({ name: 'fs-read-bench' })
  .onRequest('initialize', () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, agentInfo: { name: 'fs-read-bench', version: '1.0.0' } }))
  .onRequest('session/new', () => ({ sessionId: 'bench-1' }))
  .onNotification('session/cancel', () => {})
  .onRequest('session/prompt', async ({ params, client }) => {
    const { path, n } = JSON.parse(params.prompt.filter(b => b.type === 'text').map(b => b.text).join(''));
    const ms = [];
    let chars = 0;
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const { content } = await client.request('fs/read_text_file', { sessionId: params.sessionId, path });
      ms.push(performance.now() - t);
      chars = content.length;
    }
    await client.notify('session/update', {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `BENCH ${JSON.stringify({ ms, chars })}` } },
    });
    return { stopReason: 'end_turn' };
  });

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
process.exit(0);
