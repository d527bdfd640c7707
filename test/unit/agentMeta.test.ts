// Agent-run commands, notices and compaction without VS Code: the `_meta.terminal_*` parser, the
// coloured tail, the transcript's view of them, and the bounded buffer a finished command keeps.
import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { commandOf, OutputBuffer, parseAgentTerminalMeta, sgrSpans, toDisplayText } from '../../src/common/terminal';
import { Transcript } from '../../src/common/transcript';

describe('Agent-run command meta', () => {
  it('reads terminal_info, both output keys (chunks, in order) and terminal_exit', () => {
    assert.deepEqual(parseAgentTerminalMeta({ terminal_info: { terminal_id: 't1', cwd: '/w' } }), { terminalId: 't1', started: true, cwd: '/w', output: [] });
    assert.deepEqual(parseAgentTerminalMeta({ terminal_output: { terminal_id: 't1', data: 'a' }, terminal_output_delta: { terminal_id: 't1', data: 'b' } })?.output, ['a', 'b']);
    assert.deepEqual(parseAgentTerminalMeta({ terminal_exit: { terminal_id: 't1', exit_code: 2, signal: null } })?.exit, { exitCode: 2, signal: null });
    assert.deepEqual(parseAgentTerminalMeta({ terminal_exit: { terminal_id: 't1', exit_code: 'x', signal: 'SIGKILL' } })?.exit, { exitCode: null, signal: 'SIGKILL' });
  });

  it('ignores what is malformed: no id, an id too long, output of another terminal', () => {
    assert.equal(parseAgentTerminalMeta({ claudeCode: {} }), undefined);
    assert.equal(parseAgentTerminalMeta({ terminal_output: { data: 'x' } }), undefined);
    assert.equal(parseAgentTerminalMeta({ terminal_info: { terminal_id: 'x'.repeat(501) } }), undefined);
    assert.equal(parseAgentTerminalMeta('nope'), undefined);
    assert.deepEqual(parseAgentTerminalMeta({ terminal_info: { terminal_id: 'a' }, terminal_output: { terminal_id: 'b', data: 'x' } })?.output, []);
  });

  it('finds the command line in rawInput (a string, or Codex\'s shell argv)', () => {
    assert.equal(commandOf({ command: 'ls -la' }), 'ls -la');
    assert.equal(commandOf({ command: ['bash', '-lc', 'npm test'] }), 'npm test');
    assert.equal(commandOf({ command: ['git', 'status'] }), 'git status');
    assert.equal(commandOf({ path: 'x' }), undefined);
  });
});

describe('Coloured terminal tail', () => {
  it('keeps SGR colours, drops other escapes, applies carriage returns', () => {
    assert.equal(toDisplayText('\x1b[31mred\x1b[0m \x1b]0;title\x07ok\x1b[2K\n10%\r\x1b[32m100%\n'), '\x1b[31mred\x1b[0m ok\n\x1b[32m100%\n');
  });

  it('turns SGR into styled runs: 16 colours, 256 colours, true colour, bold, reset', () => {
    const spans = sgrSpans('a\x1b[1;31mb\x1b[38;5;196mc\x1b[48;2;1;2;3md\x1b[0me');
    assert.deepEqual(spans.map(s => s.text), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(spans[1].style, { bold: true, fg: 1 });
    assert.deepEqual(spans[2].style, { bold: true, fg: 'rgb(255, 0, 0)' });
    assert.equal(spans[3].style.bg, 'rgb(1, 2, 3)');
    assert.deepEqual(spans[4].style, {});
  });
});

describe('OutputBuffer.keepLast', () => {
  it('keeps the last bytes on a character boundary and carries the counts', () => {
    const b = new OutputBuffer(100);
    b.push(new TextEncoder().encode('ab' + 'é'.repeat(10)));
    const kept = b.keepLast(5);
    assert.equal(kept.text(true), 'éé');
    assert.equal(kept.total, 22);
    assert.equal(kept.truncated, true);
    assert.ok(kept.capacity <= 5);
  });
});

describe('Transcript: agent-run commands, notices, compaction', () => {
  const apply = (t: Transcript, u: object) => t.applyUpdate(u as SessionUpdate);

  it('gives the card the agent terminal (command, cwd, exit) instead of its terminal content, and output makes no op', () => {
    const t = new Transcript();
    apply(t, { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Terminal', kind: 'execute', content: [{ type: 'terminal', terminalId: 'c' }], _meta: { terminal_info: { terminal_id: 'c', cwd: '/w' } } });
    apply(t, { sessionUpdate: 'tool_call_update', toolCallId: 'c', rawInput: { command: 'ls' } });
    assert.deepEqual(apply(t, { sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { terminal_output_delta: { terminal_id: 'c', data: 'x'.repeat(100_000) } } }), []);
    apply(t, { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed', content: [], _meta: { terminal_exit: { terminal_id: 'c', exit_code: 0, signal: null } } });
    const item = t.snapshot()[0];
    assert.ok(item.kind === 'tool');
    assert.deepEqual(item.tool.content, []);
    assert.deepEqual(item.tool.agentTerminal, { key: 'tool:c', terminalId: 'c', command: 'ls', cwd: '/w', exit: { exitCode: 0, signal: null } });
    assert.ok(JSON.stringify(item).length < 1000);
  });

  it('adds notices with their severity (unknown → info) and compaction as one entry per id', () => {
    const t = new Transcript();
    apply(t, { sessionUpdate: 'notice', severity: 'warning', title: 'Careful', description: 'why' });
    apply(t, { sessionUpdate: 'notice', severity: 'loud', title: 'New' });
    apply(t, { sessionUpdate: 'compaction_update', compactionId: 'k', status: 'in_progress' });
    apply(t, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'k', content: { type: 'text', text: 'sum' } });
    apply(t, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'k', content: { type: 'text', text: 'mary' } });
    apply(t, { sessionUpdate: 'compaction_update', compactionId: 'k', status: 'completed' });
    assert.deepEqual(t.snapshot().map(i => ({ ...i, id: undefined })), [
      { kind: 'notice', id: undefined, text: 'Careful', severity: 'warning', details: 'why' },
      { kind: 'notice', id: undefined, text: 'New', severity: 'info' },
      { kind: 'compaction', id: undefined, status: 'completed', summary: 'summary' },
    ]);
  });
});
