// The `session/update` screen (src/acp/refusals.ts, updateSchema.ts): each update is checked once,
// by a schema per kind, and the verdict is the SDK's own schema's, message for message.
import assert from 'node:assert/strict';
import * as sdk from '@agentclientprotocol/sdk/unstable';
import { burstUpdates } from '../fixtures/agent/burst.mjs';
import { fuzzLines, mulberry32 } from '../fixtures/agent/fuzz.mjs';
import { Refusals } from '../../src/acp/refusals';
import { updateParser } from '../../src/acp/updateSchema';

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

/** `actual` is `expected`: deeply equal (undefined-valued keys count), with the keys of every object in the same order. */
function sameOutput(actual: unknown, expected: unknown, input: unknown): void {
  const what = () => describeInput(input);
  assert.deepStrictEqual(actual, expected, what());
  const order = (a: unknown, b: unknown, at: string): void => {
    if (a === b || !a || typeof a !== 'object' || !b || typeof b !== 'object') return;
    assert.deepEqual(Object.keys(a), Object.keys(b), `key order at ${at || 'params'}: ${what()}`);
    for (const k of Object.keys(a)) order((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
  };
  order(actual, expected, '');
}

function describeInput(input: unknown): string {
  try { return String(JSON.stringify(input)).slice(0, 300); } catch { return String(input); }
}

/** A deep copy of a JSON value with `mutate` applied at one of its objects or arrays, chosen by `rnd`. */
function mutated(value: unknown, rnd: () => number): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const nodes: Record<string, unknown>[] = [];
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || depth > 6) return;
    nodes.push(v as Record<string, unknown>);
    for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], depth + 1);
  };
  walk(copy, 0);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  let deep: unknown = 'bottom';
  for (let i = 0; i < 3000; i++) deep = i % 2 ? [deep] : { d: deep };
  const values = [null, undefined, 0, -1, 1.5, 2 ** 32, Number.MAX_SAFE_INTEGER + 2, NaN, true, '', 'x', 'é\u0301\uD800', 'x'.repeat(200_000), [], [null], {}, { type: 'text' },
    { type: 'text', text: 't' }, { type: 'image', data: 'AA==', mimeType: 'image/png' }, { type: 'content', content: { type: 'text', text: 'c' } },
    { type: 'diff', path: '/a', newText: 'n' }, { type: 'terminal', terminalId: 't' }, { path: '/p', line: 3 }, 'tool_call', 'agent_message_chunk',
    'tool_call_update', 'completed', 'bogus', deep, JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}'), Object.create({ inherited: 1 }), new Date(0), [1, 'two', { three: 3 }]];
  const keys = ['sessionUpdate', 'content', 'text', 'type', 'status', 'kind', 'title', 'toolCallId', 'locations', 'line', 'path', 'messageId', '_meta', 'rawInput',
    'rawOutput', 'annotations', 'sessionId', 'update', 'name', 'newText', 'oldText', 'terminalId', 'mimeType', 'data', 'uri', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'unknown'];
  for (let n = 1 + int(3); n > 0; n--) {
    const node = pick(nodes);
    if (!node) break;
    const existing = Object.keys(node);
    const key = Array.isArray(node) ? String(int(node.length + 1)) : rnd() < 0.6 && existing.length ? pick(existing) : pick(keys);
    const r = rnd();
    if (r < 0.2) delete node[key];
    else if (key === '__proto__') Object.defineProperty(node, key, { value: pick(values), enumerable: true, writable: true, configurable: true });
    else node[key] = pick(values);
  }
  return copy;
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
      if (full.success) sameOutput(screened?.params, full.data, params);
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

  it('the fast path gives what zod gives for every input: a seeded corpus of valid, mutated and hostile updates', () => {
    const { schema } = watched();
    let fallbacks = 0;
    const counted = new Proxy(schema, { get: (target, key) => (key === 'safeParse' ? (raw: unknown) => { fallbacks++; return target.safeParse(raw); } : Reflect.get(target, key, target)) });
    const parse = updateParser(counted as never);
    // Valid traffic (the burst generators) never reaches the full schema.
    const valid = [...burstUpdates({ kind: 'tools', count: 500 }), ...burstUpdates({ kind: 'varied', count: 2000 })].map(update => ({ sessionId: 's1', update }));
    for (const params of valid) sameOutput(parse(params), schema.safeParse(params), params);
    assert.equal(fallbacks, 0, 'a valid burst update went to the full schema');
    const rnd = mulberry32(0x5c2e);
    const base = allUpdates();
    let accepted = 0, refused = 0;
    for (let i = 0; i < 8_000; i++) {
      const params = mutated(base[Math.floor(rnd() * base.length)], rnd);
      const full = schema.safeParse(params);
      const screened = parse(params);
      assert.equal(screened.success, full.success, describeInput(params));
      if (full.success) { accepted++; sameOutput(screened.data, full.data, params); } else refused++;
    }
    assert.ok(accepted > 2000 && refused > 2000, `${accepted} accepted, ${refused} refused`);
  });

  it('the fast path gives what zod gives on hand-made edge cases', () => {
    const { schema } = watched();
    const parse = updateParser(schema);
    const text = (t: unknown, extra: object = {}) => ({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t }, ...extra } });
    const tcu = (extra: object) => ({ sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', ...extra } });
    const tc = (extra: object) => ({ sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'T', ...extra } });
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i++) deep = i % 2 ? [deep] : { d: deep };
    const cases: unknown[] = [
      null, undefined, 0, 'params', [], {}, { sessionId: 's1' }, { sessionId: 1, update: {} }, { sessionId: 's1', update: null }, { sessionId: 's1', update: [] },
      { sessionId: 's1', update: { sessionUpdate: 5 } }, { sessionId: 's1', update: { sessionUpdate: 'no_such_kind', content: {} } },
      text('plain'), text(''), text('x'.repeat(5_000_000)), text(7), text('t', { messageId: 'm1' }), text('t', { messageId: null }), text('t', { messageId: 5 }),
      text('t', { messageId: undefined }), text('t', { _meta: { a: 1 } }), text('t', { _meta: [] }), text('t', { _meta: null }), text('t', { _meta: 'x' }),
      text('t', { _meta: JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') }), text('t', { _meta: { deep } }), text('t', { extra: 1, constructor: 'c' }),
      JSON.parse('{"sessionId": "s1", "__proto__": {"x": 1}, "update": {"sessionUpdate": "agent_message_chunk", "__proto__": {"sessionUpdate": "tool_call"}, "content": {"type": "text", "text": "p"}}}'),
      { sessionId: 's1', update: Object.create({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'inherited' } }) },
      { sessionId: 's1', update: Object.assign(Object.create(null), { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'no prototype' } }) },
      { sessionId: 's1', update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'image', data: 'AA==', mimeType: 'image/png', uri: 5 } } },
      { sessionId: 's1', update: { sessionUpdate: 'user_message_chunk', content: { type: 'resource_link', name: 'n', uri: 'file:///a', size: 1.5 } } },
      { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'resource', resource: { uri: 'u', text: 't' }, annotations: { audience: ['user', 'bogus'], priority: 'high' } } } },
      { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 't', annotations: null } } },
      tcu({}), tcu({ status: 'completed' }), tcu({ status: 'bogus' }), tcu({ status: null }), tcu({ kind: 'execute', title: 9, name: 'n' }),
      tcu({ content: [{ type: 'content', content: { type: 'text', text: 'out' } }] }), tcu({ content: 'not a list' }), tcu({ content: null }),
      tcu({ content: [{ type: 'content', content: { type: 'text', text: 'ok' } }, { type: 'content', content: { type: 'text' } }, 5, null, { type: 'diff', path: 'p', newText: 'n', oldText: 3 }, { type: 'terminal', terminalId: 't' }] }),
      // eslint-disable-next-line no-sparse-arrays
      tcu({ content: [, { type: 'terminal', terminalId: 't' }] }),
      tcu({ locations: [{ path: 'a', line: 3 }, { path: 'b', line: -1 }, { path: 'c', line: 1.5 }, { path: 'd', line: 2 ** 32 }, { line: 4 }, { path: 'e', line: null }] }),
      tcu({ rawInput: { deep }, rawOutput: undefined }), tcu({ rawInput: null }), tcu({ toolCallId: 5 }), tcu({ toolCallId: undefined }),
      tc({}), tc({ content: 'bad', locations: 7 }), tc({ content: [5], locations: [{}] }), tc({ kind: null, status: null }), tc({ title: undefined }), tc({ kind: 'read', status: 'in_progress', name: null }),
      { sessionId: 's1', update: { sessionUpdate: 'plan', entries: [{ content: 'c', priority: 'high', status: 'pending' }, { content: 'd', priority: 'x', status: 'pending' }] } },
      { sessionId: 's1', update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'n', description: 'd', input: { hint: 'h' } }, { name: 5 }] } },
      { sessionId: 's1', update: { sessionUpdate: 'current_mode_update', currentModeId: 'm' } },
      { sessionId: 's1', update: { sessionUpdate: 'session_info_update', title: null, updatedAt: 5 } },
      { sessionId: 's1', update: { sessionUpdate: 'usage_update', used: 1, size: 2, cost: { amount: 1, currency: 'USD' } } },
      { sessionId: 's1', update: text('t').update, _meta: { m: 1 } }, { sessionId: 's1', update: text('t').update, _meta: 5 },
      Object.freeze(text('frozen')),
    ];
    for (const params of cases) {
      const full = schema.safeParse(params);
      const screened = parse(params);
      assert.equal(screened.success, full.success, describeInput(params));
      if (full.success) sameOutput(screened.data, full.data, params);
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
