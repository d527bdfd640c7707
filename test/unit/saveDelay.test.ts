import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mock } from 'node:test';
import type * as vscode from 'vscode';
import type { Item } from '../../src/common/transcript';
import { saveDelay, SavedChats, type SavableChat } from '../../src/session/savedChats';

describe('savedChats saveDelay', () => {
  it('saves a conversation of usual size within a second', () => {
    assert.equal(saveDelay(0), 1000);
    assert.equal(saveDelay(400_000), 1000);
  });
  it('spaces the saves of a large conversation by its size, up to 5 s', () => {
    assert.equal(saveDelay(1_500_000), 3000);
    assert.equal(saveDelay(4_000_000), 5000);
  });
});

/** A workspace state in memory, counting its updates. */
function store(init: Record<string, unknown> = {}) {
  const m = new Map(Object.entries(init));
  const updates: string[] = [];
  const state = {
    get: (k: string) => m.get(k), keys: () => [...m.keys()],
    update: (k: string, v: unknown) => { updates.push(k); if (v === undefined) m.delete(k); else m.set(k, v); return Promise.resolve(); },
  } as unknown as vscode.Memento;
  return { m, updates, state };
}

const quiet = { trace() {}, info() {}, warn() {}, error() {}, traceEnabled: false };
function logged() {
  const warnings: string[] = [];
  return { warnings, log: { ...quiet, warn: (m: string) => { warnings.push(m); } } };
}

function chat(id: string, items: Item[], extra: Partial<SavableChat> = {}): SavableChat {
  return { id, agentName: 'A', meta: { title: `title of ${id}` }, archived: [], archiveKey: undefined, queue: { size: 0, items: [] }, items, ...extra };
}
const agent = (id: string, text: string) => ({ kind: 'agent', id, text }) as Item;
const chatFiles = (dir: string) => fs.readdirSync(dir).filter(n => n.endsWith('.chat.json')).sort();

describe('savedChats in files', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-saved-')); });
  afterEach(() => { mock.timers.reset(); fs.rmSync(dir, { recursive: true, force: true }); });

  it('keeps each conversation in a file of its own and only a small index in the workspace state, read back as they were', () => {
    const { m, state } = store();
    const long = Array.from({ length: 2000 }, (_, n) => agent(`a${n}`, `step ${n}: ${'x'.repeat(100)}`));
    new SavedChats(state, dir).flush([chat('tab1', long, { sessionId: 's1' }), chat('tab2', [agent('b', 'short')])]);
    assert.deepEqual([...m.keys()], ['switchboard.chats.v3']);
    assert.ok(JSON.stringify(m.get('switchboard.chats.v3')).length < 500, 'the index holds no transcript');
    assert.equal(chatFiles(dir).length, 2);
    const back = new SavedChats(state, dir).load();
    assert.deepEqual(back.map(c => [c.id, c.sessionId, c.title, c.items.length]), [['tab1', 's1', 'title of tab1', 2000], ['tab2', undefined, 'title of tab2', 1]]);
    assert.deepEqual(back[0].items.at(-1), long.at(-1));
  });

  it('saves within the delay while an agent streams (no wait for the turn\'s end); an unchanged conversation is not written again', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { state, updates } = store();
    const saved = new SavedChats(state, dir);
    const streaming: Item[] = [agent('a1', 'first')];
    const idle = chat('tab1', [agent('x', 'done long ago')]);
    const tabs = () => [idle, chat('tab2', streaming, { sessionId: 's2' })];
    saved.schedule(tabs);
    mock.timers.tick(1000);
    await saved.settled();
    const [, second] = new SavedChats(state, dir).peek();
    assert.deepEqual(second.items.map(i => i.id), ['a1']);
    const file = (id: string) => path.join(dir, chatFiles(dir).find(n => fs.readFileSync(path.join(dir, n), 'utf8').includes(`"id":"${id}"`))!);
    const idleInode = fs.statSync(file('tab1')).ino;
    const indexUpdates = updates.length;
    streaming.push(agent('a2', 'second'));
    saved.schedule(tabs);
    mock.timers.tick(1000);
    await saved.settled();
    assert.deepEqual(new SavedChats(state, dir).peek()[1].items.map(i => i.id), ['a1', 'a2'], 'saved mid-turn');
    assert.equal(fs.statSync(file('tab1')).ino, idleInode, 'the unchanged conversation was not rewritten');
    assert.equal(updates.length, indexUpdates, 'the unchanged index was not sent to the window again');
  });

  it('a save at shutdown (synchronous) wins over a write still under way; a conversation closed meanwhile leaves no file', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { state } = store();
    const saved = new SavedChats(state, dir);
    const items: Item[] = [agent('a1', 'first')];
    const kept = chat('tab1', items);
    const closing = chat('tab2', [agent('b', 'soon closed')]);
    saved.schedule(() => [kept, closing]);
    mock.timers.tick(1000); // both written in the thread pool, not done yet
    items.push(agent('a2', 'at shutdown'));
    saved.flush([kept]);
    await saved.settled();
    assert.deepEqual(new SavedChats(state, dir).peek().map(c => [c.id, c.items.map(i => i.id)]), [['tab1', ['a1', 'a2']]]);
    assert.equal(fs.readdirSync(dir).length, 1, fs.readdirSync(dir).join());
  });

  it('removes the file of a conversation no longer saved (closed), and files no index lists at load', async () => {
    const { state } = store();
    const saved = new SavedChats(state, dir);
    saved.flush([chat('tab1', [agent('a', 'one')]), chat('tab2', [agent('b', 'two')])]);
    assert.equal(chatFiles(dir).length, 2);
    saved.flush([chat('tab2', [agent('b', 'two')])]);
    assert.equal(chatFiles(dir).length, 1);
    const stray = '00000000-0000-0000-0000-000000000000';
    fs.writeFileSync(path.join(dir, `${stray}.chat.json`), '{}');
    fs.writeFileSync(path.join(dir, `${chatFiles(dir)[0]}.tmp`), '{"half');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not ours');
    // Left there long ago (files being written as the load runs are another test's).
    const old = new Date(Date.now() - 10 * 60_000);
    for (const n of [`${stray}.chat.json`, `${chatFiles(dir)[0]}.tmp`]) fs.utimesSync(path.join(dir, n), old, old);
    const again = new SavedChats(state, dir);
    assert.deepEqual(again.load().map(c => c.id), ['tab2']);
    await again.pruned;
    assert.deepEqual(fs.readdirSync(dir).filter(n => n !== chatFiles(dir)[0]), ['notes.txt']);
  });

  it('keeps the files another window of this workspace is writing as it loads (a reload: the old extension host still saves)', async () => {
    const { state } = store();
    new SavedChats(state, dir).flush([chat('tab1', [agent('a', 'one')])]);
    // The old host, still saving as the new one loads: a temporary file about to be renamed, and a
    // new conversation's file whose index entry is not written yet.
    const listed = chatFiles(dir)[0];
    const fresh = '00000000-0000-0000-0000-000000000000';
    fs.writeFileSync(path.join(dir, `${listed}.tmp`), '{"id":"tab1","items":[]}');
    fs.writeFileSync(path.join(dir, `${fresh}.chat.json`), '{"id":"tab2","items":[]}');
    const loading = new SavedChats(state, dir);
    loading.load();
    await loading.pruned;
    assert.deepEqual(fs.readdirSync(dir).sort(), [`${fresh}.chat.json`, listed, `${listed}.tmp`].sort());
  });

  it('keeps files no index lists in a folder shared with other windows', async () => {
    const { state } = store();
    const other = '00000000-0000-0000-0000-000000000000';
    fs.writeFileSync(path.join(dir, `${other}.chat.json`), '{}');
    fs.writeFileSync(path.join(dir, `${other}.jsonl`), '{}');
    const saved = new SavedChats(state, dir, quiet, false);
    saved.load();
    await saved.pruned;
    assert.deepEqual(fs.readdirSync(dir).sort(), [`${other}.chat.json`, `${other}.jsonl`]);
  });

  it('skips a torn or foreign file with a log line; the other conversations load', () => {
    const { state } = store();
    new SavedChats(state, dir).flush([chat('tab1', [agent('a', 'one')]), chat('tab2', [agent('b', 'two')]), chat('tab3', [agent('c', 'three')])]);
    const entries = (state.get('switchboard.chats.v3') as { id: string; file: string }[]);
    const fileOf = (id: string) => path.join(dir, `${entries.find(e => e.id === id)!.file}.chat.json`);
    fs.writeFileSync(fileOf('tab1'), fs.readFileSync(fileOf('tab1'), 'utf8').slice(0, 20));
    fs.copyFileSync(fileOf('tab3'), fileOf('tab2'));
    const { warnings, log } = logged();
    assert.deepEqual(new SavedChats(state, dir, log).load().map(c => c.id), ['tab3']);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /title of tab1.*could not be read/);
    assert.match(warnings[1], /holds conversation "tab3"/);
  });

  it('never reads or writes a file named otherwise than by its own keys', () => {
    const { state } = store({ 'switchboard.chats.v3': [{ id: 'tab1', agentName: 'A', file: '../../etc/passwd' }, { id: 'tab2', agentName: 'A', file: '../x'.padEnd(36, 'a') }] });
    const { warnings, log } = logged();
    assert.deepEqual(new SavedChats(state, dir, log).load(), []);
    assert.deepEqual(warnings, []);
  });

  it('moves the conversations of an older version (one JSON string in the workspace state) to files, then clears it', () => {
    const old = [
      { id: 'tab4', agentName: 'A', sessionId: 's4', title: 'Old', items: [{ kind: 'user', id: 'u', text: 'old prompt' }, agent('a', 'old answer')],
        queued: [{ text: 'later', mentions: [], images: [] }] },
      { id: 'tab5', agentName: 'B', items: [agent('b', 'other')] },
    ];
    const { m, state } = store({ 'switchboard.chats.v2': JSON.stringify(old) });
    const first = new SavedChats(state, dir).load();
    assert.deepEqual(first.map(c => [c.id, c.agentName, c.sessionId, c.title, c.items.length, c.queued?.length]), [['tab4', 'A', 's4', 'Old', 2, 1], ['tab5', 'B', undefined, undefined, 1, undefined]]);
    assert.equal(m.has('switchboard.chats.v2'), false, 'cleared once in files');
    assert.equal(chatFiles(dir).length, 2);
    assert.deepEqual(new SavedChats(state, dir).load(), first, 'the next window reads the same from the files');
  });

  it('reads the first form (an array of objects) too, and keeps an older form it could not move', () => {
    const { m, state } = store({ 'switchboard.chats.v1': [{ id: 't0', agentName: 'A', items: [{ kind: 'user', id: 'u', text: 'old' }] }] });
    const blocked = path.join(dir, 'a-file');
    fs.writeFileSync(blocked, '');
    assert.deepEqual(new SavedChats(state, blocked, quiet).load().map(c => c.id), ['t0'], 'no folder to write to: still restored');
    assert.equal(m.has('switchboard.chats.v1'), true, 'kept for the next load');
    assert.equal(m.has('switchboard.chats.v3'), false);
    assert.deepEqual(new SavedChats(state, dir).load().map(c => c.id), ['t0']);
    assert.equal(m.has('switchboard.chats.v1'), false);
  });
});
