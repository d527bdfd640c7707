// Conversations kept across a window reload (issue 23): each in a file of its own in the
// extension's storage, a small index in the workspace state. What a new window would read is read
// here as it would (a SavedChats on the same state and folder).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SwitchboardApi } from '../../src/extension';
import { ToolDiffs } from '../../src/host/toolDiffs';
import { ConversationTabs } from '../../src/session/conversationTabs';
import { SavedChats } from '../../src/session/savedChats';
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
