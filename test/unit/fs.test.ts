import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { sliceLines, splitLinesKeepEnds } from '../../src/common/fs/lines';
import { chooseForm, decodeBytes, UTF8 } from '../../src/common/fs/encoding';
import { decideAccess, isAbsolutePath, isWithin, parseOutsideWorkspacePolicy, parseReviewWrites } from '../../src/common/fs/pathPolicy';
import { lineEdits, merge3 } from '../../src/common/fs/merge';
import { matchLineEndings } from '../../src/common/fs/eol';
import { FsErrors, fromNodeError } from '../../src/common/fs/errors';
import * as acp from '@agentclientprotocol/sdk/unstable';

const numbered = (n: number, eol = '\n') => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');

describe('fs: sliceLines', () => {
  const text = numbered(20);

  it('returns the whole text without line or limit', () => {
    assert.equal(sliceLines(text), text);
    assert.equal(sliceLines(text, null, null), text);
    assert.equal(sliceLines(text, 1), text);
    assert.equal(sliceLines(text, 0), text);
  });

  it('starts at a 1-based line', () => {
    assert.equal(sliceLines(text, 10), numbered(20).split('\n').slice(9).join('\n'));
    assert.ok(sliceLines(text, 10).startsWith('line 10\n'));
  });

  it('takes limit lines', () => {
    assert.equal(sliceLines(text, 10, 3), 'line 10\nline 11\nline 12\n');
    assert.equal(sliceLines(text, undefined, 2), 'line 1\nline 2\n');
    assert.equal(sliceLines(text, 19, 50), 'line 19\nline 20\n');
    assert.equal(sliceLines(text, 5, 0), '');
  });

  it('gives empty content past the end', () => {
    assert.equal(sliceLines(text, 21), '');
    assert.equal(sliceLines(text, 1000, 5), '');
    assert.equal(sliceLines('', 2), '');
    assert.equal(sliceLines('no newline', 2), '');
    assert.equal(sliceLines('no newline', 1, 1), 'no newline');
  });

  it('preserves line endings: CRLF, LF and lone CR, mixed', () => {
    const mixed = 'a\r\nb\nc\rd\r\ne';
    assert.equal(sliceLines(mixed, 1, 1), 'a\r\n');
    assert.equal(sliceLines(mixed, 2, 2), 'b\nc\r');
    assert.equal(sliceLines(mixed, 4), 'd\r\ne');
    assert.equal(sliceLines(mixed, 5, 10), 'e');
    assert.equal(sliceLines(numbered(5, '\r\n'), 2, 2), 'line 2\r\nline 3\r\n');
  });

  it('every window of seeded texts mixing \\n, \\r\\n, lone \\r and \\r\\r\\n is the lines splitLinesKeepEnds gives', () => {
    let seed = 23;
    const rand = (n: number) => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return (seed >>> 16) % n; };
    const pieces = ['a', 'bé', '\n', '\r\n', '\r', '\r\r\n', '\n\r', ''];
    for (let t = 0; t < 300; t++) {
      const text = Array.from({ length: rand(30) }, () => pieces[rand(pieces.length)]).join('');
      const lines = splitLinesKeepEnds(text);
      for (let line = 0; line <= lines.length + 1; line++) {
        for (const limit of [undefined, 0, 1, 2, 5, 100]) {
          const from = Math.max(1, line) - 1;
          const want = lines.slice(from, limit === undefined ? undefined : from + limit).join('');
          assert.equal(sliceLines(text, line, limit), want, `${JSON.stringify(text)} line ${line} limit ${limit}`);
        }
      }
    }
  });

  it('splits lines keeping their endings', () => {
    assert.deepEqual(splitLinesKeepEnds('a\r\nb\n\nc'), ['a\r\n', 'b\n', '\n', 'c']);
    assert.deepEqual(splitLinesKeepEnds(''), []);
    assert.equal(splitLinesKeepEnds(numbered(100, '\r\n')).join(''), numbered(100, '\r\n'));
  });

  it('slices the end of 5 MB', () => {
    // Its speed is bench/fs-read's to measure, not a test's (a loaded machine would fail a time limit).
    const big = numbered(300_000);
    assert.equal(sliceLines(big, 299_999, 5), 'line 299999\nline 300000\n');
  });
});

describe('fs: decoding UTF-8 (the default files.encoding)', () => {
  const decodeText = (bytes: Uint8Array) => {
    const d = decodeBytes(bytes, chooseForm(bytes, {}));
    return d.kind === 'text' ? { ok: true, text: d.text } : { ok: false, reason: d.reason };
  };
  it('decodes UTF-8', () => {
    assert.deepEqual(decodeText(Buffer.from('héllo ✓\r\n', 'utf8')), { ok: true, text: 'héllo ✓\r\n' });
    assert.deepEqual(decodeText(new Uint8Array()), { ok: true, text: '' });
  });
  it('reports NUL bytes as binary', () => {
    assert.deepEqual(decodeText(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1])), { ok: false, reason: 'binary' });
    // UTF-16 without a BOM is not told from binary (VS Code needs files.encoding or a guess for it).
    assert.deepEqual(decodeText(Buffer.from('hi', 'utf16le')), { ok: false, reason: 'binary' });
  });
  it('reports invalid UTF-8', () => {
    assert.deepEqual(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9])), { ok: false, reason: 'encoding' }); // latin-1 "café"
    assert.deepEqual(decodeText(Buffer.from([0xc3])), { ok: false, reason: 'encoding' });
  });
  it('drops a BOM and keeps everything else', () => {
    assert.deepEqual(decodeText(Buffer.from('\ufeffhi\r\n', 'utf8')), { ok: true, text: 'hi\r\n' });
    const sub = Buffer.from('xxhéllo').subarray(2);
    assert.deepEqual(decodeBytes(sub, UTF8), { kind: 'text', text: 'héllo', form: UTF8 });
  });
});

describe('fs: path policy', () => {
  it('knows absolute paths', () => {
    assert.ok(isAbsolutePath('/a/b'));
    assert.ok(!isAbsolutePath('a/b'));
    assert.ok(!isAbsolutePath('./a'));
    assert.ok(!isAbsolutePath(''));
    assert.ok(isAbsolutePath('C:\\x\\y', nodePath.win32));
    assert.ok(!isAbsolutePath('x\\y', nodePath.win32));
  });

  it('tells inside from outside, without prefix confusion', () => {
    assert.ok(isWithin('/ws', '/ws'));
    assert.ok(isWithin('/ws/a/b.txt', '/ws'));
    assert.ok(isWithin('/ws/..hidden', '/ws'));
    assert.ok(!isWithin('/ws2/a', '/ws'));
    assert.ok(!isWithin('/a', '/ws'));
    assert.ok(!isWithin('/', '/ws'));
    assert.ok(isWithin('C:\\ws\\a', 'c:\\ws', nodePath.win32));
    assert.ok(!isWithin('D:\\ws\\a', 'C:\\ws', nodePath.win32));
  });

  it('serves the workspace and applies the setting outside it', () => {
    const roots = ['/ws', '/other'];
    assert.equal(decideAccess('/ws/x', roots, 'deny'), 'allow');
    assert.equal(decideAccess('/other/y/z', roots, 'ask'), 'allow');
    for (const p of ['ask', 'allow', 'deny'] as const) assert.equal(decideAccess('/etc/passwd', roots, p), p);
    assert.equal(decideAccess('/ws/x', [], 'deny'), 'deny');
  });

  it('parses settings with safe defaults', () => {
    assert.equal(parseOutsideWorkspacePolicy('allow'), 'allow');
    assert.equal(parseOutsideWorkspacePolicy('deny'), 'deny');
    assert.equal(parseOutsideWorkspacePolicy('bogus'), 'ask');
    assert.equal(parseOutsideWorkspacePolicy(undefined), 'ask');
    assert.equal(parseReviewWrites('never'), 'never');
    assert.equal(parseReviewWrites(42), 'always');
  });
});

describe('fs: lineEdits', () => {
  const apply = (text: string, edits: ReturnType<typeof lineEdits>) => {
    let out = text;
    for (const e of [...edits].reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  };
  it('produces minimal edits that rebuild the new text', () => {
    const a = numbered(30);
    const b = a.replace('line 3\n', 'LINE THREE\n').replace('line 20\n', '').concat('tail');
    const edits = lineEdits(a, b);
    assert.equal(edits.length, 3);
    assert.equal(apply(a, edits), b);
    assert.deepEqual(lineEdits(a, a), []);
    assert.equal(apply('', lineEdits('', 'new\n')), 'new\n');
    assert.equal(apply('x\r\ny\r\n', lineEdits('x\r\ny\r\n', 'x\r\nz\r\n')), 'x\r\nz\r\n');
  });
  it('stays correct for a wholesale rewrite of a large file', () => {
    const a = numbered(20_000);
    const b = numbered(20_000).replace(/line/g, 'row');
    const edits = lineEdits(a, b);
    assert.equal(apply(a, edits), b);
  });
});

describe('fs: merge3', () => {
  const base = numbered(12);

  it('keeps the user edit on line 1 and the agent edit on line 10', () => {
    const ours = base.replace('line 1\n', 'user was here\n');
    const theirs = base.replace('line 10\n', 'agent was here\n');
    const r = merge3(base, ours, theirs);
    assert.deepEqual(r.conflicts, []);
    assert.equal(r.text, base.replace('line 1\n', 'user was here\n').replace('line 10\n', 'agent was here\n'));
  });

  it('short-cuts the trivial cases', () => {
    const other = base + 'x\n';
    assert.equal(merge3(base, base, other).text, other);
    assert.equal(merge3(base, other, base).text, other);
    assert.equal(merge3(base, other, other).text, other);
  });

  it('keeps identical changes once', () => {
    const both = base.replace('line 5\n', 'same\n');
    const r = merge3(base, both.replace('line 1\n', 'u\n'), both);
    assert.deepEqual(r.conflicts, []);
    assert.equal(r.text, both.replace('line 1\n', 'u\n'));
  });

  it('reports overlapping changes as a conflict, taking the preferred side', () => {
    const ours = base.replace('line 5\n', 'user 5\n');
    const theirs = base.replace('line 5\nline 6\n', 'agent 5\nagent 6\n');
    const r = merge3(base, ours, theirs);
    assert.equal(r.conflicts.length, 1);
    assert.deepEqual(r.conflicts[0], { startLine: 4, endLine: 6, base: 'line 5\nline 6\n', ours: 'user 5\nline 6\n', theirs: 'agent 5\nagent 6\n' });
    assert.equal(r.text, theirs);
    assert.equal(merge3(base, ours, theirs, 'ours').text, ours);
  });

  it('treats two different insertions at one place as a conflict, adjacent ones not', () => {
    const ins = (text: string, after: string, what: string) => text.replace(after, after + what);
    const r = merge3(base, ins(base, 'line 3\n', 'U\n'), ins(base, 'line 3\n', 'A\n'));
    assert.equal(r.conflicts.length, 1);
    const adj = merge3(base, ins(base, 'line 3\n', 'U\n'), base.replace('line 4\n', 'A4\n'));
    assert.deepEqual(adj.conflicts, []);
    assert.equal(adj.text, ins(base, 'line 3\n', 'U\n').replace('line 4\n', 'A4\n'));
  });

  it('merges edits at the ends of the file, with and without a final newline', () => {
    const b = 'a\nb\nc';
    const r = merge3(b, 'A\nb\nc', 'a\nb\nc\nd\n');
    assert.deepEqual(r.conflicts, []);
    assert.equal(r.text, 'A\nb\nc\nd\n');
  });
});

describe('fs: line endings of a write', () => {
  it('converts LF content to CRLF when the file uses CRLF, and leaves everything else alone', () => {
    assert.equal(matchLineEndings('a\nb\n', 'x\r\ny\r\n'), 'a\r\nb\r\n');
    assert.equal(matchLineEndings('a\nb\n', 'x\ny\n'), 'a\nb\n');
    assert.equal(matchLineEndings('a\r\nb\n', 'x\r\ny\r\n'), 'a\r\nb\n', 'content that has CR is the agent\'s choice');
    assert.equal(matchLineEndings('a\nb\n', 'x\r\ny\nz\nw\n'), 'a\nb\n', 'mostly LF stays LF');
    assert.equal(matchLineEndings('a\nb\n', ''), 'a\nb\n');
  });
});

describe('fs: errors the agent reads', () => {
  it('have exact codes and messages naming the path', () => {
    const p = '/abs/dir/file.txt';
    const cases: [ReturnType<typeof FsErrors.notFound>, number, string][] = [
      [FsErrors.relative('rel/x'), -32602, 'Path must be absolute: rel/x'],
      [FsErrors.notFound(p), -32002, `File not found: ${p}`],
      [FsErrors.directory(p), -32602, `Path is a directory, not a file: ${p}`],
      [FsErrors.binary(p), -32602, `File is binary (it contains NUL bytes), not text: ${p}`],
      [FsErrors.encoding(p), -32602, `File is not valid UTF-8 text: ${p}`],
      [FsErrors.userRejected(p), -32001, `User rejected the edit to ${p}`],
      [FsErrors.invalidPath('/a\0b', 'the path contains a NUL byte'), -32602, 'Invalid path (the path contains a NUL byte): "/a\\u0000b"'],
    ];
    for (const [e, code, message] of cases) {
      assert.ok(e instanceof acp.RequestError);
      assert.deepEqual([e.code, e.message], [code, message]);
    }
    assert.deepEqual(FsErrors.notFound(p).data, { uri: 'file:///abs/dir/file.txt', path: p, reason: 'notFound' });
  });

  it('maps Node errors', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    assert.equal(fromNodeError(errno('ENOENT'), '/x')?.code, -32002);
    assert.equal(fromNodeError(errno('EISDIR'), '/x')?.message, 'Path is a directory, not a file: /x');
    assert.equal(fromNodeError(errno('EACCES'), '/x')?.message, 'Permission denied: /x');
    assert.equal(fromNodeError(errno('EMFILE'), '/x'), undefined);
  });
});

