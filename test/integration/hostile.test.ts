// What a hostile (or just careless) agent tries, in a real VS Code, with the scripted agent's
// hostile mode (test/fixtures/agent/hostile.mjs): requests for sessions that do not exist, traffic
// after its turn ended, commands outside the workspace or never asked for, malformed paths and
// environments, misleading names, reused tool-call ids, another agent taking over a conversation.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { agentEvents, api, configureAgent, dump, extensionRoot, lastOf, NODE, tmpDir, useScriptedAgent, waitFor } from './helpers';

type Step = Record<string, unknown>;
interface Outcome { type: string; step: number; turn: unknown; result?: any; error?: { code: number; message: string; data?: any } }
type Permission = Extract<Item, { kind: 'permission' }>;

/** The documented code of a refusal by the user or by policy (see README, "Security"). */
const REFUSED = -32001;

describe('Hostile agent', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let ws: string;
  const config = () => vscode.workspace.getConfiguration('switchboard');
  const setting = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);
  const SETTINGS = ['fs.outsideWorkspace', 'fs.reviewWrites', 'requestsOutsideTurn', 'terminal.confirmCommands'];

  async function turn(steps: Step[], extra: object = {}): Promise<{ log: string; done: Promise<unknown> }> {
    const { log } = await useScriptedAgent({ turns: [{ steps, ...extra }] });
    const done = sb.chat.sendPrompt('go');
    done.catch(() => { /* asserted by the caller */ });
    return { log, done };
  }
  const outcomes = (log: string) => agentEvents(log).filter(e => e.event === 'result') as unknown as Outcome[];
  const outcome = (log: string, step: number, late = false) => waitFor(`the agent's result of ${late ? 'late ' : ''}step ${step}`,
    () => outcomes(log).find(o => o.step === step && String(o.turn).endsWith(':late') === late));
  const openQuestion = (what: string) => waitFor(what, () =>
    sb.chat.items.find((i): i is Permission => i.kind === 'permission' && i.permission.outcome === undefined));
  const optionOf = (p: Permission, kind: string) => p.permission.options.find(o => o.kind === kind)!.optionId;

  before(async () => {
    sb = await api();
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
    await setting('fs.outsideWorkspace', 'deny');
  });
  afterEach(async () => {
    for (const r of sb.files.reviews) r.reject();
    for (const key of SETTINGS) await setting(key, undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await sb.chat.stop();
    for (const key of SETTINGS) await setting(key, undefined);
  });

  // ---- 10. only real sessions, only during their turn ---------------------------------------------

  it('refuses fs, terminal and permission requests naming an unknown session with -32602', async () => {
    const file = path.join(ws, 'notes.txt');
    const { log, done } = await turn([
      { type: 'read', path: file, sessionId: 'sess-999' },
      { type: 'terminal', command: 'echo', args: ['hijacked'], sessionId: 'sess-999' },
      { type: 'permission', sessionId: 'sess-999' },
      { type: 'write', path: path.join(ws, 'hijack.txt'), content: 'x', sessionId: 'sess-999' },
    ]);
    for (let step = 0; step < 4; step++) {
      const r = await outcome(log, step);
      assert.deepEqual([r.error?.code, r.error?.data?.sessionId], [-32602, 'sess-999'], `step ${step}: ${JSON.stringify(r)}`);
    }
    await done;
    assert.equal(sb.terminals.list().filter(t => t.sessionId === 'sess-999').length, 0, 'no terminal was started');
    assert.equal(sb.files.reviews.length, 0, 'no review was opened');
    assert.ok(!sb.chat.items.some(i => i.kind === 'permission'), dump(sb.chat.items));
  });

  it('shows updates that arrive after the turn ended as late, never as part of the answer, with no spinner', async () => {
    const { done } = await turn([{ type: 'text', text: 'The answer.' }], {
      afterEnd: { steps: [
        { type: 'text', text: 'Late words.' },
        { type: 'toolCall', toolCall: { toolCallId: 'late-1', title: 'Late tool', kind: 'read', status: 'in_progress' } },
      ] },
    });
    await done;
    const tool = await waitFor('the late tool card', () => sb.chat.items.find(i => i.kind === 'tool' && i.tool.title === 'Late tool'));
    const items = sb.chat.items;
    const answer = items.find(i => i.kind === 'agent' && i.text.includes('The answer.'));
    assert.equal(answer && 'text' in answer ? answer.text : undefined, 'The answer.', dump(items));
    const late = items.find(i => i.kind === 'agent' && i.text.includes('Late words.'));
    assert.ok(late && 'late' in late && late.late, `the late message is marked late:\n${JSON.stringify(late)}`);
    assert.ok(tool.kind === 'tool' && tool.late, `the late tool call is marked late:\n${JSON.stringify(tool)}`);
    assert.ok(items.indexOf(late!) > items.findIndex(i => i.kind === 'turnEnd'), 'shown after the end of the turn');
  });

  it('asks before serving an fs request that arrives after the turn ended (requestsOutsideTurn: ask), refuses with deny', async () => {
    const file = path.join(ws, 'notes.txt');
    const first = await turn([{ type: 'text', text: 'ok' }], { afterEnd: { steps: [{ type: 'read', path: file }] } });
    await first.done;
    const question = await openQuestion('a question about the late read');
    assert.match(question.permission.title, /after its turn/);
    assert.equal(outcomes(first.log).length, 0, 'nothing is served before the answer');
    sb.chat.answerPermission(question.id, optionOf(question, 'reject_once'));
    const refused = await outcome(first.log, 0, true);
    assert.deepEqual([refused.error?.code, refused.error?.data?.reason], [REFUSED, 'userDenied'], JSON.stringify(refused));

    await setting('requestsOutsideTurn', 'deny');
    await sb.chat.stop();
    const second = await turn([{ type: 'text', text: 'ok' }], { afterEnd: { steps: [{ type: 'terminal', command: 'echo', args: ['late'] }] } });
    await second.done;
    const denied = await outcome(second.log, 0, true);
    assert.deepEqual([denied.error?.code, denied.error?.data?.reason], [REFUSED, 'outsideTurn'], JSON.stringify(denied));
  });

  it('asks about an fs request the agent wrote in the same chunk as its answer: the wire order decides, not when it is handled', async () => {
    const file = path.join(ws, 'notes.txt');
    const { log } = await useScriptedAgent({ turns: [
      { steps: [{ type: 'text', text: 'ok' }], afterEnd: { sameChunk: true, steps: [{ type: 'read', path: file }] } },
    ] });
    const done = sb.chat.sendPrompt('go');
    await done;
    const question = await openQuestion('a question about the read sent right after the answer');
    assert.match(question.permission.title, /after its turn/);
    assert.equal(outcomes(log).length, 0, 'nothing is served before the answer');
    sb.chat.answerPermission(question.id, optionOf(question, 'reject_once'));
    const refused = await outcome(log, 0, true);
    assert.deepEqual([refused.error?.code, refused.error?.data?.reason], [REFUSED, 'userDenied'], JSON.stringify(refused));
  });

  // ---- 11. commands respect the same boundary as files ------------------------------------------

  it('a terminal whose cwd is outside the workspace follows fs.outsideWorkspace', async () => {
    const outside = fs.mkdtempSync(path.join(tmpDir, 'cwd-'));
    const { log, done } = await turn([{ type: 'terminal', command: 'echo', args: ['outside'], cwd: outside }]);
    await done;
    const refused = await outcome(log, 0);
    assert.deepEqual([refused.error?.code, refused.error?.data?.reason], [REFUSED, 'outsideWorkspace'], JSON.stringify(refused));
    assert.ok(!sb.terminals.list().some(t => t.commandLine === 'echo outside'), 'the command never ran');

    await setting('fs.outsideWorkspace', 'allow');
    await sb.chat.stop();
    const allowed = await turn([{ type: 'terminal', command: 'echo', args: ['outside'], cwd: outside }]);
    const question = await openQuestion('the confirmation of a command nobody asked about (asked only once the policy allowed the folder)');
    assert.ok(question.permission.title.endsWith(`Working directory: ${outside}`), question.permission.title);
    sb.chat.answerPermission(question.id, optionOf(question, 'allow_once'));
    await allowed.done;
    assert.equal((await outcome(allowed.log, 0)).result?.exitStatus?.exitCode, 0);
  });

  it('terminal.confirmCommands: a command the agent did not ask permission for in this turn waits for the user', async () => {
    // The default: nothing sets the setting.
    const { log, done } = await turn([
      { type: 'terminal', command: 'echo', args: ['unasked'] },
      { type: 'permission', toolCall: { toolCallId: 'ask-1', title: 'Run echo asked', kind: 'execute', rawInput: { command: 'echo asked' } } },
      { type: 'terminal', command: 'echo', args: ['asked'] },
    ]);
    const question = await openQuestion('the confirmation of an unasked command');
    assert.match(question.permission.title, /echo unasked/);
    sb.chat.answerPermission(question.id, optionOf(question, 'reject_once'));
    const refused = await outcome(log, 0);
    assert.deepEqual([refused.error?.code, refused.error?.data?.reason], [REFUSED, 'userDenied'], JSON.stringify(refused));
    const permission = await openQuestion("the agent's own permission request");
    sb.chat.answerPermission(permission.id, optionOf(permission, 'allow_once'));
    assert.equal((await outcome(log, 2)).result?.exitStatus?.exitCode, 0, 'the command it asked for runs without a second question');
    await done;
    assert.equal(sb.chat.items.filter(i => i.kind === 'permission').length, 2, dump(sb.chat.items));
  });

  it('terminal.confirmCommands: a command that is only part of the command line the user allowed still waits for the user', async () => {
    await setting('terminal.confirmCommands', true);
    // Claude's shape: the permission names the whole shell string, terminal/create runs a string.
    // The user allowed an echo; the agent runs what the echo only printed.
    const { log, done } = await turn([
      { type: 'permission', toolCall: { toolCallId: 'ask-2', title: '`echo rm -rf no-such-dir`', kind: 'execute', rawInput: { command: 'echo rm -rf no-such-dir' } } },
      { type: 'terminal', command: 'rm -rf no-such-dir' },
    ]);
    const permission = await openQuestion("the agent's own permission request");
    sb.chat.answerPermission(permission.id, optionOf(permission, 'allow_once'));
    const question = await waitFor('the confirmation of a command the user did not allow', () => sb.chat.items.find((i): i is Permission =>
      i.kind === 'permission' && i.id !== permission.id && i.permission.outcome === undefined));
    assert.match(question.permission.title, /rm -rf no-such-dir without having asked/);
    sb.chat.answerPermission(question.id, optionOf(question, 'reject_once'));
    const refused = await outcome(log, 1);
    assert.deepEqual([refused.error?.code, refused.error?.data?.reason], [REFUSED, 'userDenied'], JSON.stringify(refused));
    await done;
  });

  it('by default a command nobody asked about waits for the user, showing the whole command line and its cwd; refused, it never runs (cat of a file outside the workspace)', async () => {
    const canary = path.join(tmpDir, `canary-${Date.now()}.txt`);
    fs.writeFileSync(canary, 'CANARY-7f3a\n');
    const { log, done } = await turn([
      { type: 'read', path: canary },
      { type: 'terminal', command: 'cat', args: [canary] },
    ]);
    const question = await openQuestion('the confirmation of `cat` of a file outside the workspace');
    assert.ok(question.permission.title.includes(`cat ${canary}`), question.permission.title);
    assert.ok(question.permission.title.includes(ws), `the cwd is shown: ${question.permission.title}`);
    assert.equal(outcomes(log).filter(o => o.step === 1).length, 0, 'nothing ran before the answer');
    sb.chat.answerPermission(question.id, optionOf(question, 'reject_once'));
    await done;
    const [read, cat] = [await outcome(log, 0), await outcome(log, 1)];
    assert.equal(read.error?.data?.reason, 'outsideWorkspace', JSON.stringify(read));
    assert.deepEqual([cat.error?.code, cat.error?.data?.reason], [REFUSED, 'userDenied'], JSON.stringify(cat));
    assert.ok(!sb.terminals.list().some(t => t.commandLine.includes(canary)), 'no terminal ran it');
    assert.ok(!fs.readFileSync(log, 'utf8').includes('CANARY-7f3a'), 'the agent never saw the canary');
  });

  it('terminal.confirmCommands turned off in the user settings runs commands at once', async () => {
    await setting('terminal.confirmCommands', false);
    const { log, done } = await turn([{ type: 'terminal', command: 'echo', args: ['user-says-no'] }]);
    await done;
    assert.equal((await outcome(log, 0)).result?.exitStatus?.exitCode, 0);
    assert.equal(sb.chat.items.filter(i => i.kind === 'permission').length, 0, dump(sb.chat.items));
  });

  it('"Allow this command" compares argument vectors exactly: allowing `echo "a b"` runs it (as a shell string or an argv) but `echo a b` waits for the user', async () => {
    const { log, done } = await turn([
      { type: 'permission', toolCall: { toolCallId: 'exact-1', title: 'Run a command', kind: 'execute', rawInput: { command: 'echo "a b"' } } },
      { type: 'terminal', command: 'echo "a b"' },
      { type: 'terminal', command: 'echo', args: ['a b'] },
      { type: 'terminal', command: 'echo a b' },
    ]);
    const permission = await openQuestion("the agent's own permission request");
    assert.deepEqual(permission.permission.content, [{ type: 'text', text: '```\necho "a b"\n```' }], 'the card shows the command its title does not');
    sb.chat.answerPermission(permission.id, optionOf(permission, 'allow_once'));
    assert.equal((await outcome(log, 1)).result?.output, 'a b\n', 'the allowed shell string runs');
    assert.equal((await outcome(log, 2)).result?.output, 'a b\n', 'the same argv runs');
    const question = await waitFor('the confirmation of `echo a b` (two arguments, not the one allowed)', () => sb.chat.items.find((i): i is Permission =>
      i.kind === 'permission' && i.id !== permission.id && i.permission.outcome === undefined));
    assert.match(question.permission.title, /echo a b without having asked/);
    sb.chat.answerPermission(question.id, optionOf(question, 'reject_once'));
    assert.equal((await outcome(log, 3)).error?.data?.reason, 'userDenied');
    await done;
  });

  it('a compound command never matches a simpler allowed one: allowing `echo "x; touch pwned"` does not run `echo x; touch pwned` unasked', async () => {
    const pwned = path.join(ws, `pwned-${Date.now()}`);
    const { log, done } = await turn([
      { type: 'permission', toolCall: { toolCallId: 'compound-1', title: 'Run a command', kind: 'execute', rawInput: { command: `echo "x; touch ${pwned}"` } } },
      { type: 'terminal', command: `echo x; touch ${pwned}` },
      { type: 'permission', toolCall: { toolCallId: 'compound-2', title: 'Run a command', kind: 'execute', rawInput: { command: 'echo hi' } } },
      { type: 'terminal', command: `echo hi && touch ${pwned}` },
      { type: 'terminal', command: `echo hi\ntouch ${pwned}` },
      { type: 'terminal', command: 'echo `touch ' + pwned + '`' },
    ]);
    const answer = async (what: string, kind: string, command?: string) => {
      const q = await openQuestion(what);
      if (command !== undefined) {
        assert.ok(q.permission.title.includes(`run ${command} without having asked`), q.permission.title);
        // The whole line, verbatim, in a code block (the title is markdown: a line break reads as a space there).
        assert.deepEqual(q.permission.content, [{ type: 'text', text: '```\n' + command + '\n```' }]);
      }
      sb.chat.answerPermission(q.id, optionOf(q, kind));
    };
    await answer("the agent's permission request for echo \"x; touch …\"", 'allow_once');
    await answer('the confirmation of the compound `echo x; touch …`', 'reject_once', `echo x; touch ${pwned}`);
    await answer("the agent's permission request for echo hi", 'allow_once');
    await answer('the confirmation of `echo hi && touch …`', 'reject_once', `echo hi && touch ${pwned}`);
    await answer('the confirmation of `echo hi` + newline + `touch …`', 'reject_once', `echo hi\ntouch ${pwned}`);
    await answer('the confirmation of a backtick substitution', 'reject_once', 'echo `touch ' + pwned + '`');
    await done;
    for (const step of [1, 3, 4, 5]) assert.equal((await outcome(log, step)).error?.data?.reason, 'userDenied', `step ${step}`);
    assert.ok(!fs.existsSync(pwned), 'nothing ran');
  });

  it('a 1 MiB tool-call title is cut before it reaches the view; the turn ends', async () => {
    const title = 'T'.repeat(1024 * 1024);
    const { done } = await turn([
      { type: 'toolCall', toolCall: { toolCallId: 'huge-1', title, kind: 'read', status: 'in_progress' } },
      { type: 'toolCallUpdate', update: { toolCallId: 'huge-1', status: 'completed', title } },
      { type: 'permission', toolCall: { toolCallId: 'huge-2', title, kind: 'execute' } },
      { type: 'text', text: 'after the huge title' },
    ]);
    const permission = await openQuestion('the permission request with a huge title');
    assert.ok(permission.permission.title.length < 20_000, `permission title of ${permission.permission.title.length} characters`);
    sb.chat.answerPermission(permission.id, optionOf(permission, 'allow_once'));
    await done;
    const tool = sb.chat.items.find(i => i.kind === 'tool' && i.tool.toolCallId === 'huge-1');
    const shown = tool?.kind === 'tool' ? tool.tool.title : '';
    assert.ok(shown.length < 20_000, `tool title of ${shown.length} characters`);
    assert.match(shown, /^T+ … \(\d+ more characters\)$/);
    assert.match(lastOf(sb.chat.items, 'agent')?.text ?? '', /after the huge title/);
  });

  // ---- 12. precise refusals ---------------------------------------------------------------------

  it('a path with a NUL byte or an invalid environment gets -32602 at once', async () => {
    await setting('fs.outsideWorkspace', 'ask');
    const nul = path.join(ws, 'a\u0000b.txt');
    const { log, done } = await turn([
      { type: 'read', path: nul },
      { type: 'write', path: nul, content: 'x' },
      { type: 'terminal', command: 'echo', args: ['x'], env: { 'A=B': '1' } },
      { type: 'terminal', command: 'echo', args: ['x'], env: { X: 'a\u0000b' } },
      { type: 'terminal', command: 'echo', args: ['x'], cwd: path.join(ws, 'a\u0000b') },
    ]);
    await done;
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await outcome(log, i)).error?.code);
    assert.deepEqual(codes, [-32602, -32602, -32602, -32602, -32602], JSON.stringify(outcomes(log)));
  });

  it('a path that is a FIFO is never read: the extension host stays responsive and the agent gets -32602', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(ws, `pipe-${Date.now()}.fifo`);
    execFileSync('mkfifo', [fifo]);
    try {
      // Named by an edit tool call (its baseline is snapshotted from the disk), as Claude's snippet
      // edit, then read and written through fs/*: a read of a FIFO with no writer never returns.
      const { log, done } = await turn([
        { type: 'toolCall', toolCall: { toolCallId: 'f1', title: 'Edit pipe', kind: 'edit', status: 'pending', locations: [{ path: fifo }],
          rawInput: { file_path: fifo, old_string: 'a', new_string: 'b' } } },
        { type: 'read', path: fifo },
        { type: 'write', path: fifo, content: 'x' },
        { type: 'read', path: fifo, line: 2, limit: 3 },
        { type: 'text', text: 'still here' },
      ]);
      await done;
      assert.deepEqual([(await outcome(log, 1)).error?.code, (await outcome(log, 2)).error?.code, (await outcome(log, 3)).error?.code], [-32602, -32602, -32602], JSON.stringify(outcomes(log)));
      assert.match((await outcome(log, 1)).error?.message ?? '', /not a regular file/);
      assert.match((await outcome(log, 3)).error?.message ?? '', /not a regular file/);
      assert.match(lastOf(sb.chat.items, 'agent')?.text ?? '', /still here$/, 'the turn went on to its end');
    } finally {
      fs.rmSync(fifo, { force: true });
    }
  });

  it('a refusal by policy or by the user carries the documented code and data.reason', async () => {
    const outside = path.join(tmpDir, 'secret.txt');
    fs.writeFileSync(outside, 'secret\n');
    const target = path.join(ws, 'hostile-it', 'refused.txt');
    const { log, done } = await turn([{ type: 'read', path: outside }, { type: 'write', path: target, content: 'no\n' }]);
    const review = await waitFor('the review', () => sb.files.reviews.find(r => r.path === target));
    review.reject();
    await done;
    const [policy, user] = [await outcome(log, 0), await outcome(log, 1)];
    assert.deepEqual([policy.error?.code, policy.error?.data?.reason], [REFUSED, 'outsideWorkspace'], JSON.stringify(policy));
    assert.deepEqual([user.error?.code, user.error?.data?.reason], [REFUSED, 'userRejected'], JSON.stringify(user));
  });

  it('file names with bidirectional-control characters are shown escaped in titles', async () => {
    const evil = path.join(ws, 'hostile-it', 'report\u202Etxt.sh');
    const { done } = await turn([
      { type: 'toolCall', toolCall: { toolCallId: 'bidi-1', title: 'Read report\u202Etxt.sh', kind: 'read', status: 'completed', locations: [{ path: evil }] } },
      { type: 'permission', toolCall: { toolCallId: 'bidi-2', title: 'Edit report\u202Etxt.sh' } },
      { type: 'write', path: evil, content: '#!/bin/sh\n' },
    ]);
    const permission = await openQuestion('the permission request');
    sb.chat.answerPermission(permission.id, optionOf(permission, 'allow_once'));
    const review = await waitFor('the review', () => sb.files.reviews.find(r => r.path === evil));
    const diffTab = await waitFor('the review diff tab', () => vscode.window.tabGroups.all.flatMap(g => g.tabs)
      .find(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'switchboard-diff'));
    const titles = [diffTab.label, permission.permission.title, ...sb.chat.items.flatMap(i => (i.kind === 'tool' ? [i.tool.title] : []))];
    review.reject();
    await done;
    for (const t of titles) {
      assert.ok(!/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/.test(t), `no raw bidi control in ${JSON.stringify(t)}`);
      assert.match(t, /<U\+202E>/);
    }
  });

  it('a file name with bidirectional controls is escaped in the titles of the tool diff and the Agent Changes diff', async () => {
    const evil = path.join(ws, 'hostile-it', 'changed\u202Etxt.sh');
    fs.mkdirSync(path.dirname(evil), { recursive: true });
    fs.rmSync(evil, { force: true });
    const { done } = await turn([
      { type: 'permission', toolCall: { toolCallId: 'bidi-3', title: 'Create a script', kind: 'edit', content: [{ type: 'diff', path: evil, oldText: null, newText: '#!/bin/sh\n' }] } },
      { type: 'write', path: evil, content: '#!/bin/sh\n' },
    ]);
    const permission = await openQuestion('the permission request');
    const diffTabs = () => vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.input instanceof vscode.TabInputTextDiff);
    // A permission with a diff opens the tool call's diff by itself.
    const toolTab = await waitFor('the tool diff tab', () => diffTabs().find(t => (t.input as vscode.TabInputTextDiff).modified.scheme === 'switchboard-diff'));
    sb.chat.answerPermission(permission.id, optionOf(permission, 'allow_once'));
    await done;
    const turnId = await waitFor('the change in Agent Changes', () => sb.review.views().find(v => v.files.some(f => f.path === evil))?.turnId);
    await vscode.commands.executeCommand('switchboard.openChangeDiff', { turnId, path: evil });
    const changeTab = await waitFor('the Agent Changes diff tab', () => diffTabs().find(t => (t.input as vscode.TabInputTextDiff).modified.scheme === 'file'));
    fs.rmSync(evil, { force: true });
    for (const t of [toolTab.label, changeTab.label]) {
      assert.ok(!/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/.test(t), `no raw bidi control in ${JSON.stringify(t)}`);
      assert.match(t, /changed<U\+202E>txt\.sh/);
    }
  });

  // ---- 9. options are shown for what they do ----------------------------------------------------

  it('records a permission answer by the option kind, and flags a name that contradicts it', async () => {
    const { log, done } = await turn([{ type: 'permission', options: [
      { optionId: 'sneaky', name: 'Reject', kind: 'allow_always' },
      { optionId: 'no', name: 'Allow', kind: 'reject_once' },
    ] }]);
    const question = await openQuestion('the permission request');
    const [sneaky, no] = question.permission.options;
    assert.ok(sneaky.misleading && no.misleading, `both names contradict their kinds: ${JSON.stringify(question.permission.options)}`);
    sb.chat.answerPermission(question.id, 'sneaky');
    await done;
    assert.equal((await outcome(log, 0)).result?.outcome?.optionId, 'sneaky');
    const answered = sb.chat.items.find((i): i is Permission => i.kind === 'permission')!;
    assert.equal(answered.permission.outcomeKind, 'allow_always');
    assert.match(answered.permission.outcome!, /^Always allow/, 'the recorded answer says what it did');
  });

  // ---- 4. a conversation stays with its agent ---------------------------------------------------

  it('a tab started with agent A is never continued by another agent without asking', async () => {
    const agentScript = (name: string) => {
      const log = path.join(tmpDir, `${name.replace(/\W/g, '')}-${Date.now()}.jsonl`);
      const script = path.join(tmpDir, `${name.replace(/\W/g, '')}-${Date.now()}.json`);
      fs.writeFileSync(script, JSON.stringify({ log, turns: [{ steps: [{ type: 'text', text: `${name} here` }] }] }));
      return { log, entry: { command: NODE, args: [path.join(extensionRoot(), 'test/fixtures/agent/scripted-agent.mjs'), script] } };
    };
    const a = agentScript('Agent A');
    const b = agentScript('Agent B');
    await configureAgent('Agent B', b.entry);
    await configureAgent('Agent A', a.entry);
    assert.equal(await sb.chat.sendPrompt('hello A'), 'sent');
    const tabA = sb.chat.activeTab;
    assert.equal(sb.chat.active.agentName, 'Agent A');
    // Agent B chosen for this conversation: asked first, then B gets a conversation of its own.
    const confirm = sb.chat.ui.confirm;
    const asked: string[] = [];
    sb.chat.ui.confirm = async message => { asked.push(message); return true; };
    try {
      assert.ok(await sb.chat.start({ name: 'Agent B', command: b.entry.command, args: b.entry.args, env: {}, preset: false }));
    } finally {
      sb.chat.ui.confirm = confirm;
    }
    assert.match(asked.join('\n'), /This conversation is with Agent A\. Continue with Agent B in a new conversation\?/);
    assert.notEqual(sb.chat.activeTab, tabA, 'Agent B got a tab of its own');
    sb.chat.selectTab(tabA);
    // Agent A still runs beside B: the conversation goes on with it.
    assert.equal(await sb.chat.sendPrompt('hello again'), 'sent');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'Agent A here', dump(sb.chat.items));
    // Agent A gone from the settings: the conversation asks before anyone else continues it.
    await sb.chat.stopAgentProcess('Agent A');
    await configureAgent('Agent A', null);
    const sent = sb.chat.sendPrompt('hello once more');
    const question = await openQuestion('the question before switching agents');
    assert.match(question.permission.title, /Agent A/);
    sb.chat.answerPermission(question.id, null);
    assert.equal(await sent, 'notSent');
    assert.equal(sb.chat.active.agentName, 'Agent A', 'the conversation is still with Agent A');
    assert.ok(!agentEvents(b.log).some(e => e.event === 'prompt'), 'Agent B never got a prompt');
    await configureAgent('Agent B', null);
  });

  it('a reused tool-call id in a new session adds a card instead of replacing the old one', async () => {
    const { done } = await turn([{ type: 'toolCall', toolCall: { toolCallId: 'call-1', title: 'First session tool', status: 'completed' } }]);
    await done;
    await useScriptedAgent({ turns: [{ steps: [{ type: 'toolCall', toolCall: { toolCallId: 'call-1', title: 'Second session tool', status: 'completed' } }] }] });
    await sb.chat.stop();
    await sb.chat.sendPrompt('again');
    const titles = sb.chat.items.flatMap(i => (i.kind === 'tool' ? [i.tool.title] : []));
    assert.deepEqual(titles, ['First session tool', 'Second session tool'], dump(sb.chat.items));
  });
});
