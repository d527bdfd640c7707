import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EditResolver } from '../../src/host/review/editResolver';
import { claudeToolResponse, commandOutput, rawInputPath, rawInputSnippet, rawInputSnippets } from '../../src/common/review/adapterShapes';
import { locateEdit } from '../../src/common/review/snippet';
import { TurnChanges } from '../../src/common/review/turnChanges';
import { contentViews, Transcript } from '../../src/common/transcript';

const FILE = 'a\nb\nc\nd\ne\n';

describe('locateEdit (snippet diffs)', () => {
  it('finds a snippet in the text known from before the edit, with its line', () => {
    assert.deepEqual(locateEdit({ oldText: 'c\n', newText: 'C\n' }, { before: FILE }),
      { kind: 'located', before: FILE, after: 'a\nb\nC\nd\ne\n', line: 3 });
  });

  it('finds an edit already written by its new text, and rebuilds the text before it', () => {
    assert.deepEqual(locateEdit({ oldText: 'c\n', newText: 'C\nC2\n' }, { now: 'a\nb\nC\nC2\nd\ne\n', phase: 'after' }),
      { kind: 'located', before: FILE, after: 'a\nb\nC\nC2\nd\ne\n', line: 3 });
  });

  it('an insertion whose new text contains the old one is located by the phase, never guessed', () => {
    const edit = { oldText: 'b\n', newText: 'b\nb2\n' };
    const written = 'a\nb\nb2\nc\nd\ne\n';
    assert.equal(locateEdit(edit, { now: written }).kind, 'unlocated');
    assert.deepEqual(locateEdit(edit, { now: written, phase: 'after' }), { kind: 'located', before: FILE, after: written, line: 2 });
    assert.deepEqual(locateEdit(edit, { now: FILE, phase: 'before' }), { kind: 'located', before: FILE, after: written, line: 2 });
  });

  it('an edit the agent wrote before its announcement was read is still located (backwards)', () => {
    const written = 'a\nb\nC\nd\ne\n';
    assert.deepEqual(locateEdit({ oldText: 'c\n', newText: 'C\n' }, { now: written, phase: 'before' }), { kind: 'located', before: FILE, after: written, line: 3 });
  });

  it('a snippet that occurs twice, or not at all, is unlocated (unless replace_all)', () => {
    const twice = 'x\ny\nx\n';
    assert.equal(locateEdit({ oldText: 'x\n', newText: 'z\n' }, { before: twice }).kind, 'unlocated');
    assert.deepEqual(locateEdit({ oldText: 'x\n', newText: 'z\n', replaceAll: true }, { before: twice }),
      { kind: 'located', before: twice, after: 'z\ny\nz\n', line: 1 });
    assert.deepEqual(locateEdit({ oldText: 'nope', newText: 'x' }, { before: FILE, now: FILE }), { kind: 'unlocated', reason: 'the edited text is not in the file' });
  });

  it('a whole-file diff is recognised as such', () => {
    assert.deepEqual(locateEdit({ oldText: FILE, newText: 'new\n' }, { before: FILE }), { kind: 'whole' });
    assert.deepEqual(locateEdit({ oldText: 'old\n', newText: FILE }, { now: FILE, phase: 'after' }), { kind: 'whole' });
  });

  it('matches a snippet written with \\n in a CRLF file', () => {
    const crlf = 'a\r\nb\r\nc\r\n';
    assert.deepEqual(locateEdit({ oldText: 'b\n', newText: 'B\n' }, { before: crlf }),
      { kind: 'located', before: crlf, after: 'a\r\nB\r\nc\r\n', line: 2 });
  });
});

describe('adapter shapes', () => {
  it("reads Claude's raw input and tool response", () => {
    assert.equal(rawInputPath({ file_path: '/w/a.ts', old_string: 'x' }), '/w/a.ts');
    assert.equal(rawInputPath({ command: 'ls' }), undefined);
    assert.deepEqual(rawInputSnippet({ file_path: '/w/a', old_string: 'x', new_string: 'y' }), { oldText: 'x', newText: 'y', replaceAll: false });
    assert.deepEqual(rawInputSnippets({ file_path: '/w/a', edits: [{ old_string: 'x', new_string: 'y', replace_all: true }, { nope: 1 }] }), [{ oldText: 'x', newText: 'y', replaceAll: true }]);
    assert.deepEqual(claudeToolResponse({ claudeCode: { toolResponse: { filePath: '/w/a', originalFile: 'o\n' } } }), { filePath: '/w/a', originalFile: 'o\n' });
    assert.deepEqual(claudeToolResponse({ claudeCode: { toolResponse: { type: 'create', filePath: '/w/b', originalFile: null } } }), { filePath: '/w/b', originalFile: null });
    assert.equal(claudeToolResponse({ claudeCode: { toolResponse: 'ok' } }), undefined);
  });

  it("reads Codex's command output from rawOutput, and nothing from other raw output", () => {
    assert.deepEqual(commandOutput({ exit_code: 2, stdout: 'out\n', stderr: 'err\n', aggregated_output: 'out\nerr\n' }), { stdout: 'out\n', stderr: 'err\n', exitCode: 2 });
    assert.deepEqual(commandOutput({ output: 'hi\n', metadata: { exit_code: 0 } }), { stdout: 'hi\n', stderr: '', exitCode: 0 });
    assert.equal(commandOutput('The file was updated.'), undefined);
    assert.equal(commandOutput({ result: { content: [] } }), undefined);
  });
});

describe('Transcript: in-process tool calls', () => {
  const diff = { type: 'diff' as const, path: '/w/a.txt', oldText: 'a\nb\n', newText: 'a\nB\n' };

  it('shows an edit diff once: the permission card takes it, the tool card of the same call drops it', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'pending', content: [diff] });
    const { ops } = t.addPermission({ requestId: 'c1', title: 'Edit', content: contentViews([diff]), options: [] });
    assert.equal(ops.length, 2, 'the tool card is replaced without its diff, then the permission is added');
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [diff] });
    const diffs = t.snapshot().flatMap(i => (i.kind === 'tool' ? i.tool.content : i.kind === 'permission' ? i.permission.content ?? [] : []));
    assert.equal(diffs.length, 1);
  });

  it('the permission card that took an edit diff follows its tool call: written once completed, not written once failed', () => {
    const statusOf = (t: Transcript, id: string) => { const item = t.get(id); assert.ok(item?.kind === 'permission'); return item.permission.toolStatus; };
    const done = new Transcript();
    done.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'pending', content: [diff] });
    const asked = done.addPermission({ requestId: 'c1', title: 'Edit', content: contentViews([diff]), options: [] });
    assert.equal(statusOf(done, asked.id), undefined, 'nothing to say while the request waits');
    const ops = done.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [diff] });
    assert.ok(ops.some(op => op.op === 'replace' && op.item.id === asked.id), 'the permission card is redrawn');
    assert.equal(statusOf(done, asked.id), 'completed');

    const failed = new Transcript();
    failed.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Edit', kind: 'edit', status: 'pending', content: [diff] });
    const asked2 = failed.addPermission({ requestId: 'c2', title: 'Edit', content: contentViews([diff]), options: [] });
    failed.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'failed' });
    assert.equal(statusOf(failed, asked2.id), 'failed');
  });

  it('a tool card that keeps one of two diffs still opens the right one (its index as sent)', () => {
    const t = new Transcript();
    const other = { type: 'diff' as const, path: '/w/b.txt', oldText: 'x\n', newText: 'y\n' };
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Edit', kind: 'edit', status: 'pending', content: [diff, other] });
    t.addPermission({ requestId: 'c2', title: 'Edit', content: contentViews([diff]), options: [] });
    const item = t.get('tool:c2');
    assert.ok(item?.kind === 'tool');
    assert.deepEqual(item.tool.content.map(c => c.type === 'diff' && [c.path, c.index]), [['/w/b.txt', 1]]);
  });

  it('command output carried in rawOutput becomes terminal-like output', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'ls', kind: 'execute', status: 'in_progress' });
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'completed', rawOutput: { exit_code: 0, stdout: 'a\n', stderr: '' } });
    const item = t.get('tool:x');
    assert.ok(item?.kind === 'tool');
    assert.deepEqual(item.tool.output, { stdout: 'a\n', stderr: '', exitCode: 0 });
  });

  it('an unlocated snippet diff is marked and has no made-up line numbers', () => {
    const [view] = contentViews([{ ...diff, _meta: { switchboard: { unlocated: 'the edited text is not in the file' } } }]);
    assert.ok(view.type === 'diff');
    assert.equal(view.unlocated, 'the edited text is not in the file');
    assert.deepEqual(view.preview.lines, [' a', '-b', '+B']);
  });
});

describe('TurnChanges: a guessed "created" is corrected', () => {
  it('a later report that the file held text before the change makes it an edit, so Undo restores instead of deleting', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', null, 'new\n'); // the watcher saw a create (a rename over the file)
    t.record('/w/a.txt', 'old\n', 'new\n'); // the tool response: originalFile
    assert.deepEqual(t.get('/w/a.txt'), { path: '/w/a.txt', baseline: 'old\n', current: 'new\n' });
    assert.deepEqual(t.undo('/w/a.txt'), { text: 'old\n' });
  });

  it('a file the agent created, then edited again, stays created', () => {
    const t = new TurnChanges('t1');
    t.record('/w/b.txt', null, 'one\n');
    t.record('/w/b.txt', 'one\n', 'two\n');
    assert.equal(t.get('/w/b.txt')?.baseline, null);
  });
});

describe('EditResolver (snippet diffs of tool calls become whole-file diffs)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-resolver-'));
  const file = path.join(dir, 'a.txt');
  const claude = (status: 'pending' | 'completed' | undefined, meta?: { [key: string]: unknown }) => ({
    toolCallId: 'toolu_1', status, rawInput: { file_path: file, old_string: 'b\n', new_string: 'B\n' },
    content: [{ type: 'diff' as const, path: file, oldText: 'b\n', newText: 'B\n' }], _meta: meta,
  });

  it("resolves Claude's snippet when announced, and the same way once written", () => {
    fs.writeFileSync(file, 'a\nb\nc\n');
    const r = new EditResolver();
    const announced = r.prepare('tab1', claude('pending'));
    assert.deepEqual(announced.content?.[0], { type: 'diff', path: file, oldText: 'a\nb\nc\n', newText: 'a\nB\nc\n', _meta: { switchboard: { snippetLine: 2 } } });
    fs.writeFileSync(file, 'a\nB\nc\n');
    assert.deepEqual(r.prepare('tab1', claude('completed')).content?.[0], announced.content?.[0]);
  });

  it('uses originalFile from the tool response when the snippet is not in the file any more', () => {
    fs.writeFileSync(file, 'something else\n');
    const r = new EditResolver();
    const done = r.prepare('tab1', claude('completed', { claudeCode: { toolResponse: { filePath: file, originalFile: 'x\nb\n' } } }));
    assert.equal((done.content?.[0] as { oldText: string }).oldText, 'x\nb\n');
    assert.equal((done.content?.[0] as { newText: string }).newText, 'x\nB\n');
  });

  it("fills the old text of Claude's Write over an existing file; leaves a whole-file diff that is not found as it is", () => {
    fs.writeFileSync(file, 'old\n');
    const r = new EditResolver();
    const write = r.prepare('tab1', { toolCallId: 'w', status: 'pending', content: [{ type: 'diff' as const, path: file, oldText: null as string | null, newText: 'new\n' }] });
    assert.equal((write.content?.[0] as { oldText: string | null }).oldText, 'old\n');
    const whole = { toolCallId: 'c', status: 'pending' as const, content: [{ type: 'diff' as const, path: file, oldText: 'unrelated\n', newText: 'other\n' }] };
    assert.equal(r.prepare('tab1', whole), whole, 'no snippet evidence: not marked unlocated');
  });
});
