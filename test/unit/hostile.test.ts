import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { escapeBidi, hasBidi } from '../../src/common/bidi';
import { describeChoice, isMisleading, orderOptions } from '../../src/common/permissionOptions';
import { commandPermitted, commandProblem, envProblem, parseOutsideTurnPolicy, pathProblem, permittedCommands, shellCommandKey, terminalCommandKey } from '../../src/common/requestGuard';
import { truncateStrings, truncateText } from '../../src/common/truncate';
import { applyMetaUpdate, EMPTY_META } from '../../src/common/sessionMeta';
import { commandView, Transcript } from '../../src/common/transcript';

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
  const permitted = (allowed: ReturnType<typeof permittedCommands>, command: string, args: string[] = [], posix = true) =>
    commandPermitted(allowed, terminalCommandKey(command, args, posix));
  it('a command is permitted only when an allowed request named that exact command', () => {
    const allowed = [...permittedCommands({ title: 'Run `npm test`', rawInput: { command: 'npm test' } }),
      ...permittedCommands({ title: 'Shell', rawInput: { command: ['bash', '-lc', 'ls'] } })];
    assert.ok(permitted(allowed, 'npm', ['test']));
    assert.ok(permitted(allowed, 'npm test'));
    assert.ok(permitted(allowed, '  npm   test '), 'whitespace between words is not part of a word');
    assert.ok(permitted(allowed, 'bash', ['-lc', 'ls']));
    assert.ok(!permitted(allowed, 'npm', ['test', '&&', 'rm', '-rf', '~']));
    assert.ok(!permitted(allowed, 'npm test && rm -rf ~'));
    assert.ok(!permitted(allowed, 'npm', ['tes']));
    assert.ok(!commandPermitted([], terminalCommandKey('ls', [])));
    // A part of an allowed command line is another command.
    assert.ok(!permitted(allowed, 'ls'), 'bash -lc ls does not permit ls');
    const echo = permittedCommands({ title: '`echo rm -rf ~`', rawInput: { command: 'echo rm -rf ~' } });
    assert.ok(!permitted(echo, 'rm -rf ~'));
    assert.ok(!permitted(echo, 'rm', ['-rf', '~']));
    assert.ok(permitted(echo, 'echo rm -rf ~'), 'the very same string');
    const push = permittedCommands({ title: 'Run git push --dry-run', rawInput: { command: 'git push --dry-run' } });
    assert.ok(!permitted(push, 'git', ['push']));
  });
  it('compares argument vectors: quotes and escapes count', () => {
    const allowed = permittedCommands({ title: 'Run a command', rawInput: { command: 'rm "a b"' } });
    assert.ok(permitted(allowed, 'rm "a b"'));
    assert.ok(permitted(allowed, "rm 'a b'"), 'another quoting of the same argv');
    assert.ok(permitted(allowed, 'rm a\\ b'));
    assert.ok(permitted(allowed, 'rm', ['a b']));
    assert.ok(!permitted(allowed, 'rm a b'));
    assert.ok(!permitted(allowed, 'rm', ['a', 'b']));
    assert.ok(!permitted(allowed, 'rm', ['"a b"']), 'quotes inside an argv are characters');
    assert.deepEqual(shellCommandKey('echo "a\\"b" \'c d\''), { argv: ['echo', 'a"b', 'c d'] });
    const title = permittedCommands({ title: '`git commit -m "fix it"`' });
    assert.ok(permitted(title, 'git', ['commit', '-m', 'fix it']), 'a title that is one code span names its command');
  });
  it('a compound command is kept whole and matches only the very same string', () => {
    for (const line of ['echo x; touch p', 'a && b', 'a || b', 'a | b', 'a & b', 'cat a > b', 'a 2>&1', 'a < in', 'echo $(id)', 'echo `id`',
      'echo "`id`"', 'echo $HOME', 'echo "$HOME"', 'echo *.js', 'echo a # c', 'echo hi\ntouch p', 'echo hi\rtouch p', 'X=1 cmd', 'echo ~/x',
      'echo {a,b}', 'diff <(ls) x', 'echo $((1+2))']) {
      assert.ok('shell' in shellCommandKey(line), `kept whole: ${JSON.stringify(line)}`);
    }
    const allowed = permittedCommands({ title: 'Run', rawInput: { command: 'echo "x; touch p"' } });
    assert.ok(!permitted(allowed, 'echo x; touch p'));
    assert.ok(permitted(allowed, 'echo', ['x; touch p']), 'the one argument it was');
    const compound = permittedCommands({ title: 'Run', rawInput: { command: 'npm test && npm run lint' } });
    assert.ok(permitted(compound, 'npm test && npm run lint'), 'the very same compound line');
    assert.ok(!permitted(compound, 'npm test'));
    assert.ok(!permitted(compound, 'npm', ['test']));
    assert.ok(!permitted(compound, 'npm test &&  npm run lint'));
    assert.ok(!permitted(permittedCommands({ rawInput: { command: 'echo hi' } }), 'echo hi && rm -rf ~'));
  });
  it("on Windows a shell string (cmd.exe's rules) matches only the very same string", () => {
    const allowed = permittedCommands({ rawInput: { command: 'echo "a b"' } }, false);
    assert.ok(permitted(allowed, 'echo "a b"', [], false));
    assert.ok(!permitted(allowed, 'echo a b', [], false));
    assert.ok(!permitted(allowed, 'echo', ['a b'], false));
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

describe('hostile: long texts are cut before the view', () => {
  it('keeps a short text, cuts a long one with a count, never halves a surrogate pair', () => {
    assert.equal(truncateText('abc', 3), 'abc');
    assert.equal(truncateText('abcd', 3), 'abc … (1 more character)');
    assert.equal(truncateText('x'.repeat(1024 * 1024), 10), 'xxxxxxxxxx … (1048566 more characters)');
    assert.equal(truncateText('ab😀cd', 3, '\n'), 'ab\n… (4 more characters)');
    assert.equal(truncateText('', 0), '');
  });
  it('cuts every string of agent data shown whole (session title, plan, commands), keeps the rest as it is', () => {
    const small = { a: ['x', { b: 'y', n: 3 }] };
    assert.equal(truncateStrings(small, 10), small, 'nothing to cut: the same object');
    assert.deepEqual(truncateStrings({ a: ['x'.repeat(12), { b: 'y', n: 3, t: true, z: null }] }, 10), { a: ['xxxxxxxxxx … (2 more characters)', { b: 'y', n: 3, t: true, z: null }] });
    const huge = 'P'.repeat(1024 * 1024);
    const meta = applyMetaUpdate(applyMetaUpdate(EMPTY_META, { sessionUpdate: 'session_info_update', title: huge })!,
      { sessionUpdate: 'plan', entries: [{ content: huge, priority: 'high', status: 'pending' }] })!;
    assert.ok(meta.title!.length < 5_000 && meta.plan[0].content.length < 5_000, `${meta.title!.length} / ${meta.plan[0].content.length}`);
    assert.equal(meta.plan[0].priority, 'high');
  });
  it('tool titles, permission option names and locations reach the view cut', () => {
    const t = new Transcript();
    t.enterSession('s1');
    const title = 'T'.repeat(1024 * 1024);
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title, locations: [{ path: '/' + 'p'.repeat(100_000) }],
      content: [{ type: 'content', content: { type: 'text', text: 'b'.repeat(2_000_000) } }] });
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', title });
    const item = t.snapshot()[0];
    assert.ok(item.kind === 'tool');
    assert.ok(item.tool.title.length < 5_000 && /… \(1044\d+ more characters\)$/.test(item.tool.title), item.tool.title.slice(-40));
    assert.ok(item.tool.locations[0].path.length < 5_000);
    const text = item.tool.content[0];
    assert.ok(text.type === 'text' && text.text.length < 200_000);
  });
});

describe('hostile: a command is shown whole', () => {
  it('in a fenced block longer than any backtick run in it, line breaks kept, bidi escaped', () => {
    assert.deepEqual(commandView('echo hi\ntouch p'), { type: 'text', text: '```\necho hi\ntouch p\n```' });
    assert.deepEqual(commandView('echo ```x``` `id`'), { type: 'text', text: '````\necho ```x``` `id`\n````' });
    assert.deepEqual(commandView('cat report\u202Etxt.sh'), { type: 'text', text: '```\ncat report<U+202E>txt.sh\n```' });
  });
});
