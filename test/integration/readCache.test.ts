// Reads served from kept texts (host/fs/files.ts, common/fs/readCache.ts) in a real VS Code: a file
// re-read while unchanged costs a stat, and nothing stale is ever served — not after a write on
// disk, not after a write that keeps the size and sets the mtime back, and never over a dirty buffer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { RACY_MARGIN_MS } from '../../src/common/fs/readCache';
import { agentEvents, api, useScriptedAgent, waitFor } from './helpers';

type Step = Record<string, unknown>;
interface Outcome { type: string; turn: number; step: number; result?: any; error?: { code: number; message: string } }

describe('Reads served from kept texts (no stale text ever)', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let dir: string;
  const config = () => vscode.workspace.getConfiguration('switchboard');
  const setting = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);

  /** Runs the turns one prompt each (`go 0`, `go 1`, …), `between[i]` after turn i; returns the agent's read results per turn. */
  async function turns(steps: Step[][], between: Array<() => Promise<void> | void> = []): Promise<Outcome[][]> {
    const { log } = await useScriptedAgent({ turns: steps.map((s, i) => ({ match: `^go ${i}$`, steps: s })) }, 'Scripted');
    for (let i = 0; i < steps.length; i++) {
      await sb.chat.sendPrompt(`go ${i}`);
      await between[i]?.();
    }
    const results = agentEvents(log).filter(e => e.event === 'result') as unknown as Outcome[];
    return steps.map((_, i) => results.filter(r => String(r.turn) === String(i)));
  }
  const hits = () => sb.files.readCacheCounts.hits;
  /** A file whose mtime and ctime are old enough for its text to be kept (waits for its ctime to age). */
  const aged: string[] = [];
  /** Aged large files for ranged reads answered before the rest of the file is read. */
  const early = { binary: '', base: '', torn: '' };

  before(async () => {
    sb = await api();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'read-cache-it');
    fs.mkdirSync(dir, { recursive: true });
    await setting('fs.outsideWorkspace', 'deny');
    await setting('fs.reviewWrites', 'never');
    for (const name of ['same-stamp.txt', 'dirty.txt']) {
      const f = path.join(dir, name);
      fs.writeFileSync(f, 'AAAA\nfirst version\n');
      // Whole seconds: a time set back later is then exactly the same in nanoseconds.
      const old = Math.floor(Date.now() / 1000) - 3600;
      fs.utimesSync(f, old, old);
      aged.push(f);
    }
    // A large file (ranged reads are served from its bytes): 12,000 lines of 112 bytes, 'A' on each.
    const large = path.join(dir, 'large-same-stamp.txt');
    fs.writeFileSync(large, largeText('A'));
    const old = Math.floor(Date.now() / 1000) - 3600;
    fs.utimesSync(large, old, old);
    aged.push(large);
    // Unchanged large files read by range: answered from their first bytes, the rest read after.
    const agedLines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1} ${'x'.repeat(110)}\n`);
    early.binary = path.join(dir, 'early-then-binary.bin');
    fs.writeFileSync(early.binary, Buffer.concat([Buffer.from(agedLines(12_000).join('')), Buffer.from([0, 1, 2, 0])]));
    early.base = path.join(dir, 'early-base.txt');
    fs.writeFileSync(early.base, agedLines(12_000).join(''));
    early.torn = path.join(dir, 'early-torn.txt');
    fs.writeFileSync(early.torn, agedLines(30_000).join(''));
    for (const f of [early.binary, early.base, early.torn]) {
      fs.utimesSync(f, old, old);
      aged.push(f);
    }
    // ctime cannot be set back: wait until it is older than the margin (the real condition).
    await waitFor('the files to age', () => aged.every(f => Date.now() - fs.statSync(f).ctimeMs > RACY_MARGIN_MS + 200), RACY_MARGIN_MS + 10_000);
  });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await sb.chat.stop();
    for (const key of ['fs.outsideWorkspace', 'fs.reviewWrites']) await setting(key, undefined);
  });

  it('re-reads an unchanged file from its kept text, and serves a rewrite of the same size with the mtime set back', async () => {
    const file = aged[0];
    const before = fs.statSync(file, { bigint: true });
    const hitsBefore = hits();
    const read = { type: 'read', path: file, quiet: true };
    const [first, second, third] = await turns([[read, read, { ...read, line: 2, limit: 1 }], [read], [read]], [
      () => {
        // Same size, same inode, the mtime set back: only the ctime tells (a copy that keeps times).
        fs.writeFileSync(file, 'BBBB\nfirst version\n');
        fs.utimesSync(file, Number(before.atimeNs / 1_000_000_000n), Number(before.mtimeNs / 1_000_000_000n));
        const after = fs.statSync(file, { bigint: true });
        assert.deepEqual([after.size, after.ino, after.mtimeNs], [before.size, before.ino, before.mtimeNs]);
      },
      () => { fs.writeFileSync(file, 'CC\nsecond version, longer\n'); },
    ]);
    assert.deepEqual(first.map(o => o.result?.content), ['AAAA\nfirst version\n', 'AAAA\nfirst version\n', 'first version\n']);
    assert.ok(hits() - hitsBefore >= 2, `the re-reads were served from the kept text (hits ${hits() - hitsBefore})`);
    assert.equal(second[0].result?.content, 'BBBB\nfirst version\n', 'the rewrite with the same size and mtime');
    assert.equal(third[0].result?.content, 'CC\nsecond version, longer\n', 'the next write on disk');
  });

  it('re-reads ranges of an unchanged large file from its kept bytes, and serves a rewrite of the same size with the mtime set back', async () => {
    const file = aged[2];
    const before = fs.statSync(file, { bigint: true });
    const hitsBefore = hits();
    const range = (line: number) => ({ type: 'read', path: file, line, limit: 2, quiet: true });
    // The rest of a file read by range is read once the agent pauses, or its turn ends: the next turn's re-reads are served from it.
    const [zeroth, first, second, third] = await turns([[range(5), range(5)], [range(5), range(11_000), { type: 'read', path: file, quiet: true }, range(7)], [range(5)], [range(5), range(11_999)]], [
      () => {},
      () => {
        // Same size, same inode, the mtime set back: only the ctime tells.
        fs.writeFileSync(file, largeText('B'));
        fs.utimesSync(file, Number(before.atimeNs / 1_000_000_000n), Number(before.mtimeNs / 1_000_000_000n));
        const after = fs.statSync(file, { bigint: true });
        assert.deepEqual([after.size, after.ino, after.mtimeNs], [before.size, before.ino, before.mtimeNs]);
      },
      () => { fs.writeFileSync(file, largeText('C').slice(0, -largeLine('C', 12_000).length)); },
    ]);
    const lines = (mark: string, from: number, count: number) => Array.from({ length: count }, (_, i) => largeLine(mark, from + i)).join('');
    assert.deepEqual(zeroth.map(o => o.result?.content), [lines('A', 5, 2), lines('A', 5, 2)]);
    assert.deepEqual(first.map(o => o.result?.content), [lines('A', 5, 2), lines('A', 11_000, 2), largeText('A'), lines('A', 7, 2)]);
    assert.ok(hits() - hitsBefore >= 3, `the re-reads were served from the kept bytes or text (hits ${hits() - hitsBefore})`);
    assert.equal(second[0].result?.content, lines('B', 5, 2), 'the rewrite with the same size and mtime');
    assert.deepEqual(third.map(o => o.result?.content), [lines('C', 5, 2), lines('C', 11_999, 1)], 'the next write on disk (one line shorter)');
  });

  it('serves a dirty buffer over the kept disk text, and the disk again once it is reverted', async () => {
    const file = aged[1];
    const read = { type: 'read', path: file, quiet: true };
    let doc: vscode.TextDocument | undefined;
    const hitsBefore = hits();
    const results = await turns([[read, read], [read], [read]], [
      async () => {
        doc = await vscode.workspace.openTextDocument(file);
        await vscode.window.showTextDocument(doc);
        const e = new vscode.WorkspaceEdit();
        e.insert(doc.uri, new vscode.Position(0, 0), 'UNSAVED ');
        assert.ok(await vscode.workspace.applyEdit(e));
        assert.ok(doc.isDirty);
      },
      async () => {
        await vscode.window.showTextDocument(doc!);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        assert.ok(!doc!.isDirty);
      },
    ]);
    assert.ok(hits() > hitsBefore, 'the second read was served from the kept text');
    assert.deepEqual(results.map(r => r.map(o => o.result?.content)), [
      ['AAAA\nfirst version\n', 'AAAA\nfirst version\n'],
      ['UNSAVED AAAA\nfirst version\n'],
      ['AAAA\nfirst version\n'],
    ]);
  });

  it('a ranged read of a large file answers its lines though a NUL byte comes after them (as a bare reader would); the whole read is refused as binary', async () => {
    const [ranged, whole] = await turns([
      [{ type: 'read', path: early.binary, line: 3, limit: 2, quiet: true }],
      [{ type: 'read', path: early.binary, quiet: true }],
    ]);
    assert.equal(ranged[0].result?.content, `line 3 ${'x'.repeat(110)}\nline 4 ${'x'.repeat(110)}\n`, JSON.stringify(ranged[0]).slice(0, 300));
    assert.match(whole[0].error?.message ?? '', /binary/i, JSON.stringify(whole[0]));
  });

  it('a ranged read of an unchanged large file answered before the rest was read: a change made on disk after the turn survives the agent\'s write', async () => {
    const lines = fs.readFileSync(early.base, 'utf8').split(/(?<=\n)/);
    const agents = [...lines];
    agents[8] = 'line 9 by the agent\n';
    // The rest is not read for the idle time between the turns (a loaded machine's agent may end
    // its turn later than that): only the turn's end starts it.
    const release = sb.files.holdIdleRangeRests();
    let outcomes: Outcome[][];
    try {
      outcomes = await turns([
        [{ type: 'read', path: early.base, line: 5, limit: 2, quiet: true }],
        [{ type: 'write', path: early.base, content: agents.join(''), quiet: true }],
        // The turn has ended: what the agent saw of the whole file is known by now, whatever the user does next.
      ], [() => { fs.writeFileSync(early.base, ['line 1 by a formatter\n', ...lines.slice(1)].join('')); }]);
    } finally {
      release();
    }
    const [read, wrote] = outcomes;
    assert.equal(read[0].result?.content, lines[4] + lines[5]);
    assert.ok(!wrote[0].error, JSON.stringify(wrote[0].error));
    assert.ok(fs.readFileSync(early.base, 'utf8') === ['line 1 by a formatter\n', ...lines.slice(1, 8), 'line 9 by the agent\n', ...lines.slice(9)].join(''), 'the formatter\'s line 1 and the agent\'s line 9');
  });

  it('a file changed in place while the rest of a ranged read is read: the agent\'s write is reviewed, never merged over the change unseen', async () => {
    const lines = fs.readFileSync(early.torn, 'utf8').split(/(?<=\n)/);
    const agents = [...lines];
    agents[8] = 'line 9 by the agent\n';
    const { log } = await useScriptedAgent({ turns: [{ match: '^go$', steps: [
      { type: 'read', path: early.torn, line: 5, limit: 2, quiet: true },
      // Right after the answer, in place, while the extension is still to read the rest.
      { type: 'diskPatch', path: early.torn, at: 0, text: 'LINE' },
      { type: 'write', path: early.torn, content: agents.join(''), quiet: true },
    ] }] }, 'Scripted');
    const release = sb.files.holdRangeRests();
    let prompt: Promise<unknown> | undefined;
    try {
      prompt = sb.chat.sendPrompt('go');
      await waitFor('the agent\'s change in place', () => agentEvents(log).some(e => e.event === 'diskPatch'));
    } finally {
      release();
    }
    const review = await waitFor('a review of the write (its base is not known)', () => sb.files.reviews.find(r => r.path === early.torn));
    review.reject();
    await prompt;
    const [read, wrote] = agentEvents(log).filter(e => e.event === 'result') as unknown as Outcome[];
    assert.equal(read.result?.content, lines[4] + lines[5]);
    assert.match(wrote.error?.message ?? '', /reject/i, JSON.stringify(wrote));
    assert.ok(fs.readFileSync(early.torn, 'utf8') === ['LINE' + lines[0].slice(4), ...lines.slice(1)].join(''), 'the file as the change in place left it');
  });

  // A large file's range is read from its bytes (files.ts readRange), its whole text decoded later.
  for (const [size, pad] of [['a small file', ''], ['a 1.3 MB file', ` ${'x'.repeat(110)}`]] as const) {
    it(`a ranged read keeps the whole text as the merge base (${size}): a change made on disk after it survives the agent's write`, async () => {
      const count = pad ? 12_000 : 10;
      const lines = Array.from({ length: count }, (_, i) => `line ${i + 1}${pad}\n`);
      const file = path.join(dir, `ranged-base-${count}.txt`);
      fs.writeFileSync(file, lines.join(''));
      const agents = [...lines];
      agents[8] = 'line 9 by the agent\n';
      const [read, wrote] = await turns([
        [{ type: 'read', path: file, line: 5, limit: 2, quiet: true }],
        [{ type: 'write', path: file, content: agents.join(''), quiet: true }],
      ], [() => { fs.writeFileSync(file, ['line 1 by a formatter\n', ...lines.slice(1)].join('')); }]);
      assert.equal(read[0].result?.content, lines[4] + lines[5]);
      assert.ok(!wrote[0].error, JSON.stringify(wrote[0].error));
      assert.ok(fs.readFileSync(file, 'utf8') === ['line 1 by a formatter\n', ...lines.slice(1, 8), 'line 9 by the agent\n', ...lines.slice(9)].join(''), 'the formatter\'s line 1 and the agent\'s line 9');
    });
  }
});

/** Line `n` of the large test file, marked with `mark` (112 bytes, ü included). */
function largeLine(mark: string, n: number): string {
  return `${mark} line ${String(n).padStart(5, '0')} ü ${'x'.repeat(95)}\n`;
}
function largeText(mark: string): string {
  return Array.from({ length: 12_000 }, (_, i) => largeLine(mark, i + 1)).join('');
}
