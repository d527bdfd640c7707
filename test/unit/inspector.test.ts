import assert from 'node:assert/strict';
import { isEmptyFilter, matcher, parseFilter } from '../../src/common/inspector/filter';
import { parseInspectorMessage } from '../../src/common/inspector/messages';
import { isSecretName, redactStructure, redactText, secretEnvValues } from '../../src/common/inspector/redact';
import { jsonLine, messageHead, prettyText, rowOf, TrafficLog } from '../../src/common/inspector/traffic';
import { ProtocolTraffic } from '../../src/acp/protocolTap';

const limits = (maxMessages: number, maxChars = 1e9, maxMessageChars = 1e9) => ({ maxMessages, maxChars, maxMessageChars });
const add = (log: TrafficLog, dir: 'in' | 'out', msg: object, time = 0, conn = 1) => log.add(conn, 'A', dir, messageHead(msg), JSON.stringify(msg), time);

describe('protocol inspector: traffic log', () => {
  it('reads the envelope of requests, notifications, responses and errors, whatever was sent', () => {
    assert.deepEqual(messageHead({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's1' } }), { kind: 'request', id: 1, method: 'session/prompt', session: 's1' });
    assert.deepEqual(messageHead({ method: 'session/update', params: { sessionId: 's1' } }), { kind: 'notification', method: 'session/update', session: 's1' });
    assert.deepEqual(messageHead({ id: 'x', result: {} }), { kind: 'response', id: 'x' });
    assert.deepEqual(messageHead({ id: 2, error: { code: 1 } }), { kind: 'error', id: 2 });
    for (const junk of [null, 3, 'x', [], { id: {}, method: 5, params: 'p' }]) assert.equal(messageHead(junk).kind, 'response');
  });

  it('pairs a request with its response in the other direction: latency, method and session on both', () => {
    const log = new TrafficLog(limits(10));
    const { entry: req } = add(log, 'out', { id: 7, method: 'session/prompt', params: { sessionId: 's1' } }, 1000);
    add(log, 'in', { method: 'session/update', params: { sessionId: 's1' } }, 1100);
    // The agent's own request with the same id is a different pair.
    const { entry: agentReq } = add(log, 'in', { id: 7, method: 'fs/read_text_file', params: { sessionId: 's1' } }, 1150);
    const { entry: res, paired } = add(log, 'in', { id: 7, result: { stopReason: 'end_turn' } }, 1250);
    assert.equal(paired, req);
    assert.deepEqual(rowOf(res), { seq: 4, time: 1250, conn: 1, agent: 'A', dir: 'in', kind: 'response', id: 7, method: 'session/prompt', session: 's1', size: res.size, pair: 1, latency: 250 });
    assert.equal(rowOf(req).pair, 4);
    assert.equal(rowOf(req).latency, 250);
    assert.equal(agentReq.pair, undefined);
    const { paired: p2 } = add(log, 'out', { id: 7, result: { content: 'x' } }, 1160);
    assert.equal(p2, agentReq);
    assert.equal(log.get(5)!.method, 'fs/read_text_file');
  });

  it('keeps at most maxMessages: the oldest go first, and get() finds only what is kept', () => {
    const log = new TrafficLog(limits(3));
    for (let i = 0; i < 10; i++) add(log, 'in', { method: 'm', params: { i } });
    assert.equal(log.size, 3);
    assert.deepEqual([...log.all()].map(e => e.seq), [8, 9, 10]);
    assert.equal(log.firstSeq, 8);
    assert.equal(log.get(7), undefined);
    assert.equal(log.get(9)!.text, '{"method":"m","params":{"i":8}}');
    assert.deepEqual([...log.since(9)].map(e => e.seq), [9, 10]);
  });

  it('keeps at most maxChars of text, and cuts a message over maxMessageChars', () => {
    const log = new TrafficLog(limits(1000, 100, 40));
    for (let i = 0; i < 10; i++) add(log, 'in', { method: 'm', params: { i } }); // 31 chars each
    assert.ok(log.totalChars <= 100, String(log.totalChars));
    assert.equal(log.size, 3);
    const { entry } = add(log, 'in', { method: 'big', params: { text: 'x'.repeat(100) } });
    assert.equal(entry.truncated, true);
    assert.equal(entry.text.length, 40);
    assert.ok(entry.size > 100);
    assert.equal(prettyText(entry), entry.text);
    assert.match(jsonLine(entry), /"truncated":true/);
  });

  it('a request evicted before its answer leaves the answer unpaired, not paired with another', () => {
    const log = new TrafficLog(limits(2));
    add(log, 'out', { id: 1, method: 'a' });
    add(log, 'in', { method: 'n' });
    add(log, 'in', { method: 'n' });
    const { paired } = add(log, 'in', { id: 1, result: {} });
    assert.equal(paired, undefined);
  });

  it('holds 100,000 messages in a ring that grows only as needed', () => {
    const log = new TrafficLog(limits(100_000));
    for (let i = 0; i < 150_000; i++) log.add(1, 'A', 'in', { kind: 'notification', method: 'n' }, `{"i":${i}}`, i);
    assert.equal(log.size, 100_000);
    assert.equal(log.firstSeq, 50_001);
    assert.equal(log.get(150_000)!.text, '{"i":149999}');
  });

  it('pretty-prints a message and writes a JSON Lines record with its direction and time', () => {
    const log = new TrafficLog(limits(10));
    const { entry } = add(log, 'out', { id: 1, method: 'initialize', params: {} }, Date.UTC(2026, 0, 2, 3, 4, 5));
    assert.equal(prettyText(entry), '{\n  "id": 1,\n  "method": "initialize",\n  "params": {}\n}');
    assert.deepEqual(JSON.parse(jsonLine(entry)), { seq: 1, time: '2026-01-02T03:04:05.000Z', agent: 'A', direction: 'out', message: { id: 1, method: 'initialize', params: {} } });
  });
});

describe('protocol inspector: filter', () => {
  const log = new TrafficLog(limits(100));
  add(log, 'out', { id: 1, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'Hello World' }] } });
  add(log, 'in', { method: 'session/update', params: { sessionId: 's2', update: { text: 'Ünïcode' } } });
  add(log, 'in', { id: 1, result: { stopReason: 'end_turn' } });
  const seqs = (f: object) => [...log.all()].filter(matcher(parseFilter(f))).map(e => e.seq);

  it('by method (a response with its request), by session, by text ignoring case', () => {
    assert.deepEqual(seqs({}), [1, 2, 3]);
    assert.deepEqual(seqs({ method: 'session/prompt' }), [1, 3]);
    assert.deepEqual(seqs({ session: 's2' }), [2]);
    assert.deepEqual(seqs({ text: 'hello world' }), [1]);
    assert.deepEqual(seqs({ text: 'ÜNÏ'.toLowerCase() }), [2]);
    assert.deepEqual(seqs({ text: 'END_TURN' }), [3]);
    assert.deepEqual(seqs({ text: 'UPDATE' }), [2]);
    assert.deepEqual(seqs({ method: 'session/prompt', text: 'end_turn' }), [3]);
  });

  it('by connection and session: another agent’s session of the same id is not shown', () => {
    const two = new TrafficLog(limits(100));
    add(two, 'in', { method: 'session/update', params: { sessionId: 'sess-1', update: {} } }, 0, 1);
    add(two, 'in', { method: 'session/update', params: { sessionId: 'sess-1', update: {} } }, 0, 2);
    const pick = (f: object) => [...two.all()].filter(matcher(parseFilter(f))).map(e => e.seq);
    assert.deepEqual(pick({ conn: 2, session: 'sess-1' }), [2]);
    assert.deepEqual(pick({ session: 'sess-1' }), [1, 2]);
    assert.deepEqual(parseFilter({ conn: 'x' }), {});
    assert.equal(rowOf(two.get(2)!).conn, 2);
  });

  it('takes only strings from the view', () => {
    assert.deepEqual(parseFilter({ method: 3, session: null, text: ['x'] }), {});
    assert.equal(isEmptyFilter(parseFilter('junk')), true);
    assert.equal(parseFilter({ text: 'x'.repeat(5000) }).text!.length, 1000);
  });

  it('validates the view messages', () => {
    assert.deepEqual(parseInspectorMessage({ type: 'inspector/open', seq: 3 }), { type: 'inspector/open', seq: 3 });
    assert.equal(parseInspectorMessage({ type: 'inspector/open', seq: '3' }), undefined);
    assert.equal(parseInspectorMessage({ type: 'inspector/copy', seq: 1.5 }), undefined);
    assert.equal(parseInspectorMessage({ type: 'nope' }), undefined);
    assert.equal(parseInspectorMessage(null), undefined);
    assert.deepEqual(parseInspectorMessage({ type: 'inspector/export', extra: 1 }), { type: 'inspector/export' });
  });
});

describe('protocol inspector: redaction', () => {
  it('hides every MCP server env and header value in session/new, load and resume, and leaves the sent message alone', () => {
    const msg = { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/w', mcpServers: [
      { name: 'gh', command: 'x', args: [], env: [{ name: 'GITHUB_TOKEN', value: 'ghp_abcdef123456' }, { name: 'MODE', value: 'fast' }] },
      { type: 'http', name: 'api', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer sk-live-999999' }] },
    ] } };
    const before = JSON.stringify(msg);
    const { message, found } = redactStructure(msg);
    assert.equal(JSON.stringify(msg), before, 'the original is untouched');
    const text = JSON.stringify(message);
    for (const secret of ['ghp_abcdef123456', 'fast', 'sk-live-999999']) assert.ok(!text.includes(secret), secret);
    assert.match(text, /"GITHUB_TOKEN","value":"\*\*\*"/);
    assert.deepEqual(found, ['ghp_abcdef123456', 'fast', 'Bearer sk-live-999999']);
  });

  it('hides terminal/create env values with secret-like names only', () => {
    const { message } = redactStructure({ id: 1, method: 'terminal/create', params: { command: 'x', env: [{ name: 'API_KEY', value: 'k-123456789' }, { name: 'LANG', value: 'C' }] } });
    assert.deepEqual((message as { params: { env: unknown } }).params.env, [{ name: 'API_KEY', value: '***' }, { name: 'LANG', value: 'C' }]);
  });

  it('returns the message itself when it carries no config', () => {
    const m = { method: 'session/update', params: { sessionId: 's' } };
    assert.equal(redactStructure(m).message, m);
  });

  it('replaces known secrets anywhere, also as escaped in a JSON string; short ones are left', () => {
    const secret = 'p"a\\ss-word';
    const text = JSON.stringify({ echo: `key is ${secret} and sk-abcdef`, short: 'abc' });
    assert.equal(redactText(text, [secret, 'sk-abcdef', 'abc']), '{"echo":"key is *** and ***","short":"abc"}');
  });

  it('takes the agent env values whose names look like credentials', () => {
    assert.deepEqual(secretEnvValues({ ANTHROPIC_API_KEY: 'a', GH_TOKEN: 'b', DEBUG: '1', NODE_OPTIONS: 'x' }), ['a', 'b']);
    assert.equal(isSecretName('OPENAI_API_KEY'), true);
    assert.equal(isSecretName('PATH'), false);
  });
});

describe('protocol inspector: the connection tap', () => {
  it('records nothing while nobody asked, then both directions with the keys redacted', () => {
    const traffic = new ProtocolTraffic();
    let t = 0;
    traffic.now = () => (t += 5);
    const tap = traffic.connection('Agent', ['sk-secret-key-1']);
    tap.outgoing({ id: 0, method: 'initialize', params: {} });
    assert.equal(traffic.log.size, 0);
    const reason = traffic.recordWhile({});
    const seen: number[] = [];
    traffic.onEntry(e => seen.push(e.seq));
    tap.outgoing({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [{ name: 's', command: 'c', args: [], env: [{ name: 'T', value: 'mcp-token-42' }] }] } });
    tap.incoming({ method: 'session/update', params: { sessionId: 's', text: 'I saw sk-secret-key-1 and mcp-token-42' } });
    tap.incoming({ id: 1, result: { sessionId: 's' } });
    assert.deepEqual(seen, [1, 2, 3]);
    const texts = [...traffic.log.all()].map(e => e.text).join('\n');
    assert.ok(!texts.includes('sk-secret-key-1') && !texts.includes('mcp-token-42'), texts);
    assert.equal(traffic.log.get(3)!.latency, 10);
    reason.dispose();
    tap.incoming({ method: 'x' });
    assert.equal(traffic.log.size, 3);
  });

  it('an inspector opened after session/new still redacts the MCP secrets that session/new carried', () => {
    const traffic = new ProtocolTraffic();
    const tap = traffic.connection('Agent', []);
    tap.outgoing({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [{ name: 's', type: 'http', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer mcp-header-77' }] }, { name: 't', command: 'c', args: [], env: [{ name: 'T', value: 'mcp-token-42' }] }] } });
    assert.equal(traffic.log.size, 0);
    traffic.recordWhile({});
    tap.incoming({ method: 'session/update', params: { sessionId: 's', text: 'I saw mcp-token-42 and Bearer mcp-header-77' } });
    const text = [...traffic.log.all()].map(e => e.text).join('\n');
    assert.equal(traffic.log.size, 1);
    assert.ok(!text.includes('mcp-token-42') && !text.includes('mcp-header-77'), text);
  });

  it('a message JSON cannot hold is skipped, never thrown into the connection', () => {
    const traffic = new ProtocolTraffic();
    traffic.recordWhile({});
    const tap = traffic.connection('A', []);
    assert.doesNotThrow(() => tap.outgoing({ id: 1, method: 'm', params: { n: 10n } }));
    assert.equal(traffic.log.size, 0);
  });
});
