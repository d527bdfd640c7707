// Fuzzed agent messages (issue 24, point 9): a seeded stream of valid, mutated and broken JSON-RPC
// lines from the scripted agent (test/fixtures/agent/fuzz.mjs, its `fuzz` step). Each message is
// applied or refused and logged once per kind; no handler throws past its own listener; no file
// changes and nothing is listed in Agent Changes. Replay a run with FUZZ_SEED=<seed> (printed).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, dump, lastOf, useScriptedAgent, waitFor } from './helpers';

/** The run `npm test` makes: a fixed seed, so a failure is the same failure on every machine. */
const DEFAULT_SEED = 0x24_09;
const COUNT = Number(process.env.FUZZ_COUNT) || 3000;

/** Every file under `dir` with the hash of its bytes. */
function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), e.isFile() ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : e.isSymbolicLink() ? 'link' : 'special');
    }
  };
  walk(dir);
  return out;
}

function treeDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter(n => before.get(n) !== after.get(n)).map(n => `${n}: ${before.has(n) ? (after.has(n) ? 'changed' : 'deleted') : 'created'}`);
}

/** The Output channel's lines (VS Code writes the log channel to a file in the extension's log folder). */
function logLines(sb: SwitchboardApi): string[] {
  const dir = sb.logUri.fsPath;
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(f => f.endsWith('.log')).flatMap(f => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'));
}

describe('Fuzzed agent messages', function () {
  this.timeout(240_000);
  let sb: SwitchboardApi;
  let ws: string;
  const setting = (key: string, value: unknown) => vscode.workspace.getConfiguration('switchboard').update(key, value, vscode.ConfigurationTarget.Global);

  before(async () => {
    sb = await api();
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
    // What earlier suites left listed in Agent Changes (a helper agent's files) is not this suite's.
    await sb.review.settled();
    for (const t of sb.review.views()) sb.review.keep(t.turnId);
    await setting('fs.outsideWorkspace', 'deny');
  });
  afterEach(async () => {
    for (const r of sb.files.reviews) r.reject();
    for (const t of sb.review.views()) sb.review.keep(t.turnId);
    await setting('fs.outsideWorkspace', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => { await sb.chat.stop(); });

  it('a tool call whose diff path holds a lone surrogate is shown, and its other listeners still run', async () => {
    const bad = path.join(ws, '\uD800hello.txt');
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'update', update: {
        sessionUpdate: 'tool_call', toolCallId: 'lone', title: 'npm test', kind: 'execute', status: 'in_progress',
        content: [{ type: 'diff', path: bad, oldText: 'a', newText: 'b' }],
        _meta: { terminal_info: { terminal_id: 'lone-t', cwd: ws }, terminal_output: { data: 'still here\n' } },
      } },
      { type: 'text', text: 'after' },
    ] }] });
    await sb.chat.sendPrompt('go');
    const item = lastOf(sb.chat.items, 'tool');
    assert.ok(item, dump(sb.chat.items));
    const key = item.tool.agentTerminal?.key;
    assert.ok(key, `the agent terminal listener saw the same update: ${JSON.stringify(item.tool)}`);
    assert.equal(sb.agentTerminals.getTail(`${sb.chat.activeTab}/${key}`, 4096, { plain: true }), 'still here\n');
    assert.ok(sb.chat.items.some(i => i.kind === 'agent' && i.text === 'after'), dump(sb.chat.items));
  });

  it('a tool response claiming an original text of a file that never changed, or a path spelled otherwise, lists nothing', async () => {
    // Claude's Edit tool response names the file and its text before the edit. Here the file does
    // not exist (or exists unchanged): nothing on disk differs, so nothing may be listed.
    const missing = path.join(ws, 'hello.txt');
    const unchanged = path.join(ws, 'notes.txt');
    const response = (file: string, id: string) => ({ type: 'update', update: {
      sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed',
      _meta: { claudeCode: { toolName: 'Edit', toolResponse: { filePath: file, originalFile: 'claimed before\n', oldString: 'a', newString: 'b' } } },
    } });
    const before = hashTree(ws);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'toolCall', toolCall: { toolCallId: 'e1', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: missing }] } },
      response(missing, 'e1'),
      { type: 'toolCall', toolCall: { toolCallId: 'e2', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: unchanged }] } },
      response(unchanged, 'e2'),
      // The same file spelled with a trailing separator: read, then named by an edit that never ran.
      { type: 'read', path: `${unchanged}${path.sep}`, quiet: true },
      { type: 'toolCall', toolCall: { toolCallId: 'e3', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: `${unchanged}${path.sep}` }] } },
      { type: 'toolCallUpdate', update: { toolCallId: 'e3', status: 'completed', locations: [{ path: `${unchanged}${path.sep}` }] } },
    ] }] });
    await sb.chat.sendPrompt('go');
    await sb.review.settled();
    assert.deepEqual(treeDiff(before, hashTree(ws)), []);
    assert.deepEqual(sb.review.views().flatMap(v => v.files.map(f => `${path.basename(f.path)} ${JSON.stringify(f)}`)), [], 'Agent Changes lists nothing');
  });

  it(`applies or refuses ${COUNT} seeded messages: no file changes, nothing listed, each refusal kind logged once`, async () => {
    const seed = (Number(process.env.FUZZ_SEED ?? DEFAULT_SEED) >>> 0);
    console.log(`      fuzz seed ${seed} (replay: FUZZ_SEED=${seed})`);
    const before = hashTree(ws);
    const linesBefore = logLines(sb).length;
    const { log } = await useScriptedAgent({ turns: [
      { match: '^fuzz$', steps: [{ type: 'fuzz', seed, count: COUNT }, { type: 'text', text: 'fuzz done' }] },
      { match: '^ping$', steps: [{ type: 'text', text: 'pong' }] },
    ] });
    assert.equal(await sb.chat.sendPrompt('fuzz'), 'sent');
    const fuzzed = agentEvents(log).find(e => e.event === 'fuzz');
    assert.ok(fuzzed, 'the agent sent its fuzz lines');
    assert.equal(lastOf(sb.chat.items, 'turnEnd')?.stopReason, 'end_turn', dump(sb.chat.items.slice(-5)));
    assert.ok(sb.chat.items.some(i => i.kind === 'agent' && i.text.endsWith('fuzz done')), 'the turn went on after the fuzz');

    // The extension host is alive and the agent answers a normal prompt.
    assert.equal(await sb.chat.sendPrompt('ping'), 'sent');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'pong', dump(sb.chat.items.slice(-5)));
    // The transcript is what the view renders (posted as JSON): it must serialize.
    assert.doesNotThrow(() => JSON.stringify(sb.chat.items));

    await sb.review.settled();
    assert.deepEqual(treeDiff(before, hashTree(ws)), [], `seed ${seed}: no file in the workspace changed`);
    assert.equal(sb.files.reviews.length, 0, 'no write waits for review');
    assert.deepEqual(sb.review.views().flatMap(v => v.files.map(f => `${f.path}: ${JSON.stringify(f)}`)), [], `seed ${seed}: Agent Changes is empty`);

    // Refused messages are logged, each kind once: a few lines, not one per message.
    const logged = await waitFor('refusals in the log', () => {
      const lines = logLines(sb).slice(linesBefore).filter(l => /refused|ignored|not an ACP message/i.test(l));
      return lines.length ? lines : undefined;
    });
    assert.ok(logged.length < 100, `${logged.length} refusal lines for ${COUNT} messages:\n${logged.slice(0, 20).join('\n')}`);
    const kinds = logged.map(l => /was refused \((.*?)\):/.exec(l)?.[1]).filter(Boolean);
    assert.ok(kinds.length > 3, `refusals of several kinds were logged:\n${logged.join('\n')}`);
    assert.equal(new Set(kinds).size, kinds.length, `each kind once:\n${kinds.join('\n')}`);
    const failures = logLines(sb).slice(linesBefore).filter(l => /could not handle a message/i.test(l));
    assert.deepEqual(failures, [], `seed ${seed}: no handler threw`);
  });
});
