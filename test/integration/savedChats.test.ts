// Conversations kept across a window reload (issue 23): each in a file of its own in the
// extension's storage, a small index in the workspace state. What a new window would read is read
// here as it would (a SavedChats on the same state and folder).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import type { HostMessage } from '../../src/common/protocol';
import { ToolDiffs } from '../../src/host/toolDiffs';
import { DraftBook, type Draft } from '../../src/common/conversation/drafts';
import type { ConnectionServicesFactory } from '../../src/acp/clientServices';
import { ChatController } from '../../src/session/chatController';
import { ConversationTabs } from '../../src/session/conversationTabs';
import { SavedChats, type SavableChat } from '../../src/session/savedChats';
import { api, dump, gate, lastOf, memoryMemento, quietLogger, useScriptedAgent, waitFor } from './helpers';

describe('Saved conversations', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  after(async () => { await sb.chat.stop(); });

  it('saves a conversation while its agent is still mid-turn: a reload (or a crash) then brings the streamed answer back', async () => {
    const go = gate('mid-turn');
    await useScriptedAgent({ turns: [{ steps: [{ type: 'text', text: 'halfway through the long task' }, { type: 'waitFile', path: go.path }, { type: 'text', text: ' and done' }] }] });
    await sb.chat.newConversation();
    const tab = sb.chat.active;
    const turn = sb.chat.sendPrompt('a long task');
    try {
      await waitFor(() => `the first half: ${dump(tab.items)}`, () => lastOf(tab.items, 'agent')?.text === 'halfway through the long task');
      // What a new window would read now. Saved within the save delay (a few seconds at most), not
      // when the turn ends (it had waited up to 60 s for that).
      const reloaded = () => new SavedChats(sb.chat.saved.state, sb.chat.saved.dir, quietLogger).peek().find(c => c.id === tab.id);
      const back = await waitFor(() => `the saved conversation to hold the streamed half: ${dump(reloaded()?.items ?? [])}`,
        () => { const c = reloaded(); return lastOf(c?.items ?? [], 'agent')?.text === 'halfway through the long task' && c; }, 8000);
      assert.ok(tab.inTurn, 'the agent is still mid-turn');
      assert.deepEqual(back.items.map(i => i.kind), tab.items.map(i => i.kind), dump(back.items));
      assert.equal(lastOf(back.items, 'user')?.text, 'a long task');
    } finally {
      go.open();
      await turn;
    }
  });

  it('moves the conversations an older version kept in the workspace state to files: they come back as tabs, then from the files', async () => {
    const memento = memoryMemento();
    await memento.update('switchboard.chats.v2', JSON.stringify([{
      id: 'tab3', agentName: 'Scripted', sessionId: 'sess-old', title: 'Kept by 0.3',
      items: [{ kind: 'user', id: 'u1', text: 'the old prompt' }, { kind: 'agent', id: 'a1', text: 'the old answer' }],
      queued: [{ text: 'then this', mentions: [], images: [] }],
    }]));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-migrate-'));
    const window = (saved: SavedChats) => new ConversationTabs(quietLogger, saved, new ToolDiffs(sb.files.edits), { beforeTurn: () => Promise.resolve(), turned: () => undefined });
    const first = window(new SavedChats(memento, dir, quietLogger));
    const second = window(new SavedChats(memento, dir, quietLogger));
    try {
      first.restore();
      const tab = first.get('tab3');
      assert.ok(tab, first.infos.map(t => t.id).join());
      assert.deepEqual([tab.info.title, tab.sessionId, lastOf(tab.items, 'agent')?.text, tab.queue.size], ['Kept by 0.3', 'sess-old', 'the old answer', 1]);
      assert.equal(memento.get('switchboard.chats.v2'), undefined, 'the workspace state no longer holds the transcript');
      assert.equal(fs.readdirSync(dir).filter(n => n.endsWith('.chat.json')).length, 1);
      first.flush();
      // The next window: the same conversation, from its file.
      second.restore();
      const again = second.get('tab3');
      assert.ok(again, second.infos.map(t => t.id).join());
      assert.deepEqual([again.info.title, again.sessionId, again.items.filter(i => i.kind === 'agent').find(i => i.id === 'a1')?.text, again.queue.size], ['Kept by 0.3', 'sess-old', 'the old answer', 1]);
    } finally {
      first.dispose();
      second.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps a draft with a pasted image in a file, not in the workspace state (each keystroke would send the image to the window): a new window gets it back', async () => {
    await useScriptedAgent({ turns: [] });
    await sb.chat.newConversation();
    const tab = sb.chat.activeTab;
    const image = { mimeType: 'image/png', data: 'A'.repeat(1_000_000) };
    sb.chat.setDraft({ text: 'look at this', mentions: [], images: [image] }, tab);
    sb.chat.setDraft({ text: 'look at this picture', mentions: [], images: [image] }, tab);
    const stateChars = () => sb.chat.saved.state.keys().reduce((n, k) => n + (JSON.stringify(sb.chat.saved.state.get(k)) ?? '').length, 0);
    const reloaded = () => new SavedChats(sb.chat.saved.state, sb.chat.saved.dir, quietLogger).drafts.load().drafts.find(d => d[0] === tab)?.[1];
    const back = await waitFor(() => `the draft saved for a new window: ${JSON.stringify(reloaded())?.slice(0, 200)}`, () => reloaded()?.text === 'look at this picture' && reloaded(), 5000);
    assert.equal(back.images[0]?.data.length, 1_000_000, 'the image comes back whole');
    assert.ok(stateChars() < 100_000, `the workspace state holds ${stateChars()} characters`);
  });
});

// A window reload: the new extension host loads the files while the old one (code-server runs both
// a moment) may still write its last changes. The old host is a SavedChats of its own on the same
// folder, writing as it would at its shutdown (flush); the new window is a ConversationTabs.
describe('Saved conversations across a reload, while the old window still writes', () => {
  let sb: SwitchboardApi;
  let dir: string;
  const open: { dispose(): void }[] = [];
  before(async () => { sb = await api(); });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reload-')); });
  afterEach(() => {
    for (const w of open.splice(0)) w.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const window = (memento: vscode.Memento, ownsDir = true) => {
    const w = new ConversationTabs(quietLogger, new SavedChats(memento, dir, quietLogger, ownsDir), new ToolDiffs(sb.files.edits), { beforeTurn: () => Promise.resolve(), turned: () => undefined });
    open.push(w);
    return w;
  };
  /** A conversation of the old window, as its SavedChats sees it. */
  const chat = (id: string, title: string, ...texts: string[]): SavableChat => ({
    id, agentName: 'Scripted', meta: { title }, archived: [], archiveKey: undefined, queue: { size: 0, items: [] },
    items: texts.flatMap((text, i) => [{ kind: 'user' as const, id: `i${2 * i + 1}`, text: `prompt ${i + 1}` }, { kind: 'agent' as const, id: `i${2 * i + 2}`, text }]),
  });
  const answers = (items: readonly Item[]) => items.filter(i => i.kind === 'agent').map(i => i.text);
  /** What the window after the next reload would load. */
  const next = (memento: vscode.Memento) => new SavedChats(memento, dir, quietLogger).peek();
  /** The old window, its conversations saved: its state (shared with the new window unless copied) and its SavedChats. */
  const oldWindow = (...chats: SavableChat[]) => oldWindowIn(true, ...chats);
  /** The same, `ownsDir` false: a window without a folder (its folder, VS Code's global storage, shared by such windows). */
  const oldWindowIn = (ownsDir: boolean, ...chats: SavableChat[]) => {
    const memento = memoryMemento();
    const old = new SavedChats(memento, dir, quietLogger, ownsDir);
    old.flush(chats);
    return { memento, old };
  };
  const copy = (memento: vscode.Memento) => {
    const c = memoryMemento();
    for (const k of memento.keys()) void c.update(k, structuredClone(memento.get(k)));
    return c;
  };

  it('a conversation the new window has not touched takes the last changes the old window writes after the new one loaded it: shown, and not overwritten with the older copy', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'Long task', 'the first answer'));
    const neu = window(memento);
    neu.restore();
    const tab = neu.get('tab1');
    assert.ok(tab, neu.infos.map(t => t.id).join());
    let resets = 0;
    neu.onReset(id => { if (id === 'tab1') resets++; });
    // The old window's shutdown flush lands now, after the new one loaded.
    old.flush([chat('tab1', 'Long task', 'the first answer', 'the last answer before the reload')]);
    await waitFor(() => `the new window's tab to show the old window's last answer: ${dump(neu.get('tab1')?.items ?? [])}`,
      () => answers(neu.get('tab1')?.items ?? []).includes('the last answer before the reload'), 5000);
    assert.ok(resets > 0, 'the chat view re-renders the tab');
    neu.flush();
    const back = next(memento).find(c => c.id === 'tab1');
    assert.deepEqual(answers(back?.items ?? []), ['the first answer', 'the last answer before the reload']);
  });

  it('a conversation the new window changed since it loaded it never overwrites the old window\'s newer file: both stay, each in a tab', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'Long task', 'the first answer'));
    const neu = window(memento);
    neu.restore();
    neu.get('tab1')!.addNotice('changed in the new window');
    neu.flush();
    old.flush([chat('tab1', 'Long task', 'the first answer', 'the last answer before the reload')]);
    neu.get('tab1')!.addNotice('changed again in the new window');
    neu.flush();
    // What the window after the next reload shows: the old window's copy is a tab of its own.
    const texts = () => next(memento).map(c => c.items.map(i => ('text' in i ? i.text : '')).join(' | '));
    await waitFor(() => `the old window's last answer and the new window's change both kept: ${texts().join('\n')}`,
      () => texts().some(t => t.includes('the last answer before the reload')) && texts().some(t => t.includes('changed again in the new window')), 5000);
    assert.deepEqual(neu.infos.map(t => t.title), ['Long task', 'Long task']);
  });

  it('restores a conversation created just before the reload whose file was written but whose index update never reached the window', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'First', 'the first answer'));
    const lost = copy(memento);
    // The new conversation's file is written; the index that lists it stays in the old window's state.
    old.flush([chat('tab1', 'First', 'the first answer'), chat('tab2', 'Just created', 'an answer just before the reload')]);
    const neu = window(lost);
    neu.restore();
    assert.deepEqual(neu.infos.map(t => t.title), ['First', 'Just created']);
    assert.deepEqual(answers(neu.get('tab2')?.items ?? []), ['an answer just before the reload']);
    neu.flush();
    assert.deepEqual(next(lost).map(c => c.title), ['First', 'Just created'], 'listed from now on');
  });

  it('restores a conversation the old window writes after the new one loaded, which no index lists; never in a folder shared by windows', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'First', 'the first answer'));
    const lost = copy(memento);
    const neu = window(copy(memento));
    neu.restore();
    old.flush([chat('tab1', 'First', 'the first answer'), chat('tab2', 'Just created', 'an answer just before the reload')]);
    await waitFor(() => `the new window to show the new conversation: ${neu.infos.map(t => t.title).join()}`, () => neu.infos.length === 2, 5000);
    assert.deepEqual(answers(neu.all[1].items), ['an answer just before the reload']);
    const shared = window(lost, false);
    shared.restore();
    assert.deepEqual(shared.infos.map(t => t.title), ['First'], 'a folder shared by windows: another window\'s conversation is not taken');
  });

  it('in the global storage windows without a folder share: restores this window\'s conversation whose index update was lost (at load, or written after it), never another window\'s', async () => {
    const { memento, old } = oldWindowIn(false, chat('tab1', 'First', 'the first answer'));
    const lost = copy(memento);
    old.flush([chat('tab1', 'First', 'the first answer'), chat('tab2', 'Just created', 'an answer just before the reload')]);
    const other = window(memoryMemento(), false);
    other.restore();
    assert.deepEqual(other.all.map(t => t.items.length), [0], 'another window: none of these (one empty tab)');
    const neu = window(lost, false);
    neu.restore();
    assert.deepEqual(neu.infos.map(t => t.title), ['First', 'Just created']);
    old.flush([chat('tab1', 'First', 'the first answer'), chat('tab2', 'Just created', 'an answer just before the reload'), chat('tab3', 'Created last', 'the last answer')]);
    await waitFor(() => `the window to show the conversation its previous host created after this one loaded: ${neu.infos.map(t => t.title).join()}`, () => neu.infos.length === 3, 5000);
    neu.flush();
    assert.deepEqual(next(lost).map(c => c.title), ['First', 'Just created', 'Created last'], 'listed from now on');
    assert.deepEqual(other.all.map(t => t.items.length), [0], 'not in another window');
  });

  it('in the global storage windows without a folder share: removes this window\'s files no index lists once nothing wrote them for a minute, never another window\'s', async () => {
    const { memento, old } = oldWindowIn(false, chat('tab1', 'First', 'the first answer'));
    const lost = copy(memento);
    old.flush([chat('tab1', 'First', 'the first answer'), chat('tab2', 'Closed long ago', 'an answer')]);
    // Another window's conversation: its index (in that window's state) lists it, no index here does.
    oldWindowIn(false, chat('tab9', 'Another window\'s', 'its answer'));
    const onDisk = () => fs.readdirSync(dir).filter(n => n.endsWith('.chat.json')).map(n => (JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as { id: string }).id).sort();
    assert.deepEqual(onDisk(), ['tab1', 'tab2', 'tab9']);
    const minutesAgo = (Date.now() - 2 * 60_000) / 1000;
    for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), minutesAgo, minutesAgo);
    const neu = new SavedChats(lost, dir, quietLogger, false);
    assert.deepEqual(neu.load().map(c => c.title), ['First']);
    await neu.pruned;
    assert.deepEqual(onDisk(), ['tab1', 'tab9'], 'this window\'s file no index lists is removed; its listed one and another window\'s stay');
  });

  // The drafts: written 300 ms after the last keystroke, so the old window's last keystrokes may land
  // after the new one loaded them. The new window is a ChatController (what its prompt boxes get).
  const typed = (text: string): Draft => ({ text, mentions: [], images: [] });
  const noAgent: ConnectionServicesFactory = () => { throw new Error('no agent starts in this test'); };
  const chatWindow = (memento: vscode.Memento) => {
    const w = new ChatController(quietLogger, () => undefined, noAgent, new SavedChats(memento, dir, quietLogger), new ToolDiffs(sb.files.edits), sb.signIn);
    open.push(w);
    return w;
  };
  /** The old window's drafts as it writes them (at its shutdown: at once). */
  const oldDrafts = (old: SavedChats, text: string) => old.drafts.save(new DraftBook([['tab1', typed(text), 'view']]), true);
  const nextDrafts = (memento: vscode.Memento) => new SavedChats(memento, dir, quietLogger).drafts.load().drafts.filter(d => d[0] === 'tab1').map(d => d[1].text);

  it('a prompt box the new window has not typed in takes the old window\'s last keystrokes, written after the new window loaded the drafts', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'Long task', 'the first answer'));
    oldDrafts(old, 'fix the bu');
    const neu = chatWindow(memento);
    assert.equal(neu.draftOf('tab1', 'view')?.text, 'fix the bu', 'loaded as written 300 ms before the reload');
    oldDrafts(old, 'fix the bug in the parser');
    await waitFor(() => `the new window's prompt box to get the old window's last keystrokes: ${neu.draftOf('tab1', 'view')?.text}`,
      () => neu.draftOf('tab1', 'view')?.text === 'fix the bug in the parser', 5000);
    neu.dispose();
    assert.deepEqual(nextDrafts(memento), ['fix the bug in the parser'], 'not written over with the older draft');
  });

  it('a prompt box typed in both windows keeps both texts: the old window\'s last keystrokes are never written over', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'Long task', 'the first answer'));
    oldDrafts(old, 'fix the bu');
    const neu = chatWindow(memento);
    neu.setDraft(typed('fix the bu and add a test'), 'tab1', 'view');
    oldDrafts(old, 'fix the bug in the parser');
    neu.dispose();
    const both = nextDrafts(memento).join('\n');
    assert.ok(both.includes('fix the bug in the parser') && both.includes('fix the bu and add a test'), both);
  });

  it('a prompt box typed in and saved by the new window keeps its text when the old window\'s late write, made from the drafts it had, arrives', async () => {
    const { memento, old } = oldWindow(chat('tab1', 'Long task', 'the first answer'));
    const boxes = (view: string, editor: string) => new DraftBook([['tab1', typed(view), 'view'], ['tab1', typed(editor), 'editor']]);
    old.drafts.save(boxes('the side bar\'s box', 'the editor\'s box'), true);
    const neu = chatWindow(memento);
    // The new window types in the side bar's box and saves its drafts (its own version of the file).
    neu.setDraft(typed('the side bar\'s box, typed in the new window'), 'tab1', 'view');
    neu.saved.drafts.flush();
    // The old window's last keystrokes, in the editor's box, written from the drafts it had (as a
    // version before this one writes them: without looking at the file first).
    old.drafts.save(boxes('the side bar\'s box', 'the editor\'s box, and its last keystrokes'), true);
    await waitFor(() => `the new window to take the old window's last keystrokes: ${neu.draftOf('tab1', 'editor')?.text}`,
      () => neu.draftOf('tab1', 'editor')?.text === 'the editor\'s box, and its last keystrokes', 5000);
    assert.equal(neu.draftOf('tab1', 'view')?.text, 'the side bar\'s box, typed in the new window', 'what the new window typed is not reverted');
  });

  it('the old window\'s last keystrokes taken in go to the page already showing that prompt box (with what it held there)', async () => {
    await vscode.commands.executeCommand('switchboard.openChat');
    await waitFor('the side bar\'s page is ready', () => sb.view.surfaceList.find(s => s.id === 'view' && s.ready));
    const tab = sb.view.surfaceList.find(s => s.id === 'view')!.shows ?? sb.chat.activeTab;
    const drafts = sb.chat.saved.drafts;
    // The page's box is empty (as when the new window loaded the drafts); the drafts file is written.
    sb.view.receive('view', { type: 'composer/draft', tab, text: '', mentions: [], images: [] });
    drafts.flush();
    const file = drafts.path!;
    const posted: HostMessage[] = [];
    const sub = sb.view.onDidPost(({ surface, message }) => { if (surface === 'view') posted.push(message); });
    try {
      // The window's previous host writes its last keystrokes (a file of its own, renamed into place)
      // and the folder's watch reports it (what check does for it).
      const theirs = [...(JSON.parse(fs.readFileSync(file, 'utf8')) as [string, Draft, string?][]).filter(([t, , s]) => t !== tab || s !== 'view'),
        [tab, typed('fix the bug in the parser'), 'view']];
      fs.writeFileSync(`${file}.old-host`, JSON.stringify(theirs));
      fs.renameSync(`${file}.old-host`, file);
      const held = sb.chat.draftOf(tab, 'view');
      drafts.check(path.basename(file));
      const got = await waitFor('the page to be given the old window\'s draft', () => posted.find(m => m.type === 'composer/restore'), 5000);
      assert.deepEqual(got, { type: 'composer/restore', tab, text: 'fix the bug in the parser', mentions: [], images: [], over: { text: held?.text ?? '', images: held?.images.length ?? 0 } });
      assert.equal(sb.chat.draftOf(tab, 'view')?.text, 'fix the bug in the parser');
    } finally {
      sub.dispose();
      sb.view.receive('view', { type: 'composer/draft', tab, text: '', mentions: [], images: [] });
    }
  });
});
