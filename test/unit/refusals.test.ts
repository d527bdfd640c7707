// The `session/update` screen (src/acp/refusals.ts, updateSchema.ts): each update is checked once,
// by a schema per kind, and the verdict is the SDK's own schema's, message for message.
import assert from 'node:assert/strict';
import * as sdk from '@agentclientprotocol/sdk/unstable';
import { burstUpdates } from '../fixtures/agent/burst.mjs';
import { fuzzLines } from '../fixtures/agent/fuzz.mjs';
import { Refusals } from '../../src/acp/refusals';

type Schema = { safeParse(raw: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } }; parse(raw: unknown): unknown };

/** A client app watched by a Refusals, its session/update handler registered; the SDK's schema of the params. */
function watched(onUpdate: (params: unknown) => void = () => {}) {
  const warnings: string[] = [];
  const refusals = new Refusals({ traceEnabled: false, trace() {}, info() {}, warn: m => { warnings.push(m); }, error: m => { warnings.push(m); } });
  const app = sdk.client({ name: 'test' });
  refusals.watch(app);
  let schema: Schema | undefined;
  const register = (app as unknown as { notification(spec: { method: string; params?: unknown }, h: unknown): unknown }).notification;
  (app as unknown as { notification: typeof register }).notification = function (spec, h) {
    if (spec.method === 'session/update') schema = spec.params as Schema;
    return register.call(app, spec, h);
  };
  app.onNotification(sdk.methods.client.session.update, ({ params }) => onUpdate(params));
  return { refusals, app, schema: schema!, warnings };
}

/** Every session/update params object the fuzz (seeded) and burst generators make. */
function allUpdates(): unknown[] {
  const out: unknown[] = [];
  for (const line of fuzzLines({ seed: 0x2409, count: 6000, sessionId: 's1', cwd: '/w' })) {
    if (typeof line !== 'string') continue;
    try { const m = JSON.parse(line); if (m?.method === 'session/update') out.push(m.params); } catch { /* broken JSON: not an update */ }
  }
  for (const kind of ['tools', 'varied'] as const) for (const update of burstUpdates({ kind, count: 3000 })) out.push({ sessionId: 's1', update });
  return out;
}

describe('refusals: the session/update screen', () => {
  it('accepts exactly what the SDK schema accepts, hands on what it parses, and refuses with its first issue', () => {
    const { refusals, schema, warnings } = watched();
    const updates = allUpdates();
    let refused = 0;
    const firstIssues = new Map<string, string>();
    for (const params of updates) {
      const full = schema.safeParse(params);
      const screened = refusals.screen({ jsonrpc: '2.0', method: 'session/update', params }, () => false);
      if (full.success) assert.deepEqual(screened?.params, full.data, String(JSON.stringify(params)).slice(0, 300));
      else {
        assert.equal(screened, undefined, String(JSON.stringify(params)).slice(0, 300));
        refused++;
        const issue = full.error!.issues[0] as { path: unknown[]; message: string };
        const tag = (params as { update?: { sessionUpdate?: unknown } })?.update?.sessionUpdate;
        const key = `session/update ${typeof tag === 'string' ? tag : ''}`;
        if (!firstIssues.has(key)) firstIssues.set(key, `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
      }
    }
    assert.ok(refused > 100 && refused < updates.length - 1000, `${refused} of ${updates.length} refused`);
    // Each refusal logged names the SDK schema's first issue of a refused message of that kind.
    assert.ok(warnings.length > 3);
    for (const w of warnings.filter(w => w.includes('session/update'))) {
      assert.ok([...firstIssues.values()].some(issue => w.includes(issue)), w);
    }
  });

  it('parses a screened update once: the SDK router and the handler take it as screened', async () => {
    const received: unknown[] = [];
    let all = () => {};
    const arrived = new Promise<void>(resolve => { all = resolve; });
    const { refusals, app, schema } = watched(p => { if (received.push(p) === 200) all(); });
    let parses = 0;
    const parse = schema.parse.bind(schema);
    schema.parse = raw => { parses++; return parse(raw); };
    const updates = [...burstUpdates({ kind: 'tools', count: 50 })].map(update => ({ jsonrpc: '2.0' as const, method: 'session/update', params: { sessionId: 's1', update } }));
    const screened = updates.map(m => refusals.screen(m, () => false)!);
    assert.ok(screened.every(Boolean));
    const readable = new ReadableStream<sdk.AnyMessage>({ start(c) { for (const m of screened) c.enqueue(m as sdk.AnyMessage); } });
    const writable = new WritableStream<sdk.AnyMessage>();
    const conn = app.connect({ readable, writable });
    await arrived;
    conn.close();
    assert.equal(received.length, updates.length);
    assert.deepEqual(received, screened.map(m => (m as { params: unknown }).params));
    assert.equal(parses, 0, 'the SDK parsed screened updates again');
  });
});
