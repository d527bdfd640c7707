import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { escapeBidi, hasBidi } from '../../src/common/bidi';
import { describeChoice, isMisleading, orderOptions } from '../../src/common/permissionOptions';
import { commandPermitted, commandProblem, envProblem, parseOutsideTurnPolicy, pathProblem, permissionCommandText } from '../../src/common/requestGuard';
import { Transcript } from '../../src/common/transcript';

describe('hostile: bidirectional controls', () => {
  it('are escaped visibly, so "txt.sh" cannot pass for ".txt"', () => {
    assert.equal(escapeBidi('report\u202Etxt.sh'), 'report<U+202E>txt.sh');
    assert.equal(escapeBidi('a\u2066b\u2069\u200F\u061C'), 'a<U+2066>b<U+2069><U+200F><U+061C>');
    assert.equal(escapeBidi('plain.txt — naïve 文字'), 'plain.txt — naïve 文字');
    assert.ok(hasBidi('x\u202Ay') && !hasBidi('xy'));
  });
});

describe('hostile: permission options by kind', () => {
  const o = (name: string, kind: string) => ({ optionId: name, name, kind });
  it('flags a name that says the opposite of its kind, and only then', () => {
    assert.ok(isMisleading(o('Reject', 'allow_always')));
    assert.ok(isMisleading(o('Allow', 'reject_once')));
    assert.ok(isMisleading(o('Sure', 'something_new')), 'an unknown kind is never trusted');
    for (const ok of [o('Allow', 'allow_once'), o('Always Allow', 'allow_always'), o('Yes, and don\'t ask again', 'allow_always'), o('No thanks', 'reject_once'), o('Reject', 'reject_once'), o('Approve for session', 'allow_always')]) {
      assert.ok(!isMisleading(ok), ok.name);
    }
  });
  it('records what the option did', () => {
    assert.equal(describeChoice(o('Reject', 'allow_always')), 'Always allow (the option was named “Reject”)');
    assert.equal(describeChoice(o('Allow', 'allow_once')), 'Allow');
  });
  it('orders options by kind, stable within a kind', () => {
    const list = [o('r', 'reject_once'), o('A', 'allow_always'), o('x', 'weird'), o('a', 'allow_once'), o('R', 'reject_always'), o('a2', 'allow_once')];
    assert.deepEqual(orderOptions(list).map(x => x.name), ['a', 'a2', 'A', 'r', 'R', 'x']);
  });
});

describe('hostile: request checks', () => {
  it('refuse NUL bytes and malformed environments', () => {
    assert.equal(pathProblem('/a/b'), undefined);
    assert.match(pathProblem('/a\0b')!, /NUL/);
    assert.equal(envProblem([{ name: 'A', value: '1' }]), undefined);
    assert.match(envProblem([{ name: 'A=B', value: '1' }])!, /"="/);
    assert.match(envProblem([{ name: '', value: '1' }])!, /empty/);
    assert.match(envProblem([{ name: 'X', value: 'a\0b' }])!, /NUL/);
    assert.match(commandProblem('echo', ['a\0']) ?? '', /NUL/);
    assert.equal(parseOutsideTurnPolicy('bogus'), 'ask');
  });
  it('a command is permitted only when an allowed request named that exact command line', () => {
    const allowed = [permissionCommandText({ title: 'Run `npm test`', rawInput: { command: 'npm test' } }),
      permissionCommandText({ title: 'Shell', rawInput: { command: ['bash', '-lc', 'ls'] } })];
    assert.ok(commandPermitted(allowed, 'npm', ['test']));
    assert.ok(commandPermitted(allowed, 'npm test', []));
    assert.ok(commandPermitted(allowed, 'bash', ['-lc', 'ls']));
    assert.ok(!commandPermitted(allowed, 'npm', ['test', '&&', 'rm', '-rf', '~']));
    assert.ok(!commandPermitted(allowed, 'npm', ['tes']));
    assert.ok(!commandPermitted([], 'ls', []));
    // A part of an allowed command line is another command.
    assert.ok(!commandPermitted(allowed, 'ls', []), 'bash -lc ls does not permit ls');
    const echo = [permissionCommandText({ title: '`echo rm -rf ~`', rawInput: { command: 'echo rm -rf ~' } })];
    assert.ok(!commandPermitted(echo, 'rm -rf ~', []));
    assert.ok(!commandPermitted(echo, 'rm', ['-rf', '~']));
    assert.ok(commandPermitted(echo, 'echo rm -rf ~', []), 'the whole title (Claude shows the command) names it');
    const push = [permissionCommandText({ title: 'Run git push --dry-run', rawInput: { command: 'git push --dry-run' } })];
    assert.ok(!commandPermitted(push, 'git', ['push']));
  });
});

describe('hostile: transcript history is never rewritten', () => {
  const tool = (id: string, title: string, status: 'completed' | 'in_progress' = 'completed'): SessionUpdate =>
    ({ sessionUpdate: 'tool_call', toolCallId: id, title, status });
  it('scopes tool-call ids to their session', () => {
    const t = new Transcript();
    t.enterSession('s1');
    t.applyUpdate(tool('call-1', 'First'));
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', title: 'First, refined' });
    t.enterSession('s2');
    t.applyUpdate(tool('call-1', 'Second'));
    assert.deepEqual(t.snapshot().map(i => (i.kind === 'tool' ? i.tool.title : '')), ['First, refined', 'Second']);
    const restored = Transcript.from(t.snapshot());
    restored.enterSession('s2');
    restored.applyUpdate(tool('call-1', 'Third'));
    assert.equal(restored.snapshot().length, 3, 'a restored conversation never rewrites its cards');
  });
  it('shows late updates apart, without touching the finished turn', () => {
    const t = new Transcript();
    t.enterSession('s1');
    t.addUser('go');
    t.applyUpdate(tool('call-1', 'Read', 'completed'));
    t.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } });
    t.endTurn('end_turn');
    t.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'late ' } }, true);
    t.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'words' } }, true);
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'in_progress', title: 'Rewritten' }, true);
    const items = t.snapshot();
    const tools = items.filter(i => i.kind === 'tool');
    assert.equal(tools.length, 2);
    assert.deepEqual(tools.map(i => i.kind === 'tool' && [i.tool.title, !!i.late]), [['Read', false], ['Rewritten', true]]);
    const late = items.find(i => i.kind === 'agent' && i.late);
    assert.ok(late && late.kind === 'agent' && late.text === 'late words');
    assert.ok(items.some(i => i.kind === 'agent' && !i.late && i.text === 'done'));
  });
});
