// A chat page is written with the state of the conversation it shows (views/chatViewProvider.ts
// firstState), so it shows it as it loads, without waiting for the host's answer to `view/ready`
// (issue 23: the chat's first paint). What changes before the page is ready still reaches it: the
// host then sends the whole state again. What a page was sent is read from ChatViewProvider.onDidPost,
// which counts what is written into the page.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { HostMessage } from '../../src/common/protocol';
import { api, waitFor } from './helpers';

describe('A chat page written with its first state', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  afterEach(async () => { await vscode.commands.executeCommand('workbench.action.closeAllEditors'); });

  /** Opens the chat in a new editor tab; its surface id, and what its page was sent (so far, and as it comes). */
  function openEditorPage(): { id: string; got: HostMessage[]; dispose(): void } {
    const before = new Set(sb.view.surfaceList.map(s => s.id));
    const got: HostMessage[] = [];
    let id = '';
    const sub = sb.view.onDidPost(({ surface, message }) => { if (!id || surface === id) got.push(message); });
    sb.view.openInEditor();
    id = sb.view.surfaceList.find(s => !before.has(s.id))?.id ?? '';
    assert.ok(id, 'a new surface for the editor tab');
    return { id, got, dispose: () => sub.dispose() };
  }
  const resets = (got: readonly HostMessage[]) => got.filter((m): m is Extract<HostMessage, { type: 'state/reset' }> => m.type === 'state/reset');

  it('an editor tab\'s page has its conversation before it says it is ready', async () => {
    await sb.chat.newConversation();
    const tab = sb.chat.activeTab;
    sb.chat.active.addNotice('Shown as the page loads.');
    const page = openEditorPage();
    try {
      // Nothing asked for it yet: the page was written with it.
      assert.equal(sb.view.surfaceList.find(s => s.id === page.id)?.ready, false, 'the page has not said it is ready yet');
      const [first] = resets(page.got);
      assert.ok(first, `the page was written with its state: ${JSON.stringify(page.got.map(m => m.type))}`);
      assert.equal(first.activeTab, tab);
      assert.ok(first.items.some(i => i.kind === 'notice' && i.text === 'Shown as the page loads.'), 'with the conversation\'s transcript');
      await waitFor('the editor tab\'s page is ready', () => sb.view.surfaceList.find(s => s.id === page.id && s.ready));
      assert.equal(sb.view.surfaceList.find(s => s.id === page.id)?.shows, tab, 'the surface shows the conversation its page was written with');
    } finally { page.dispose(); }
  });

  it('a conversation too large for the page\'s HTML is sent once the page is ready', async () => {
    await sb.chat.newConversation();
    sb.chat.active.addNotice(`A long notice: ${'x'.repeat(1_100_000)}`);
    const page = openEditorPage();
    try {
      assert.equal(resets(page.got).length, 0, 'not written into the page');
      await waitFor('the editor tab\'s page is ready', () => sb.view.surfaceList.find(s => s.id === page.id && s.ready));
      const sent = await waitFor('the state sent', () => resets(page.got)[0]);
      assert.ok(sent.items.some(i => i.kind === 'notice' && i.text.startsWith('A long notice')), 'with the conversation');
    } finally { page.dispose(); }
  });

  it('a change before the page is ready: the page is sent its state again, with the change', async () => {
    await sb.chat.newConversation();
    const page = openEditorPage();
    try {
      assert.equal(resets(page.got).length, 1, 'written with its state');
      // Before the page can have loaded (the same tick): the conversation it shows changes.
      sb.chat.active.addNotice('Added after the page was written.');
      await waitFor('the editor tab\'s page is ready', () => sb.view.surfaceList.find(s => s.id === page.id && s.ready));
      const again = await waitFor('the state sent again', () => resets(page.got)[1]);
      assert.ok(again.items.some(i => i.kind === 'notice' && i.text === 'Added after the page was written.'), `the change is in it: ${JSON.stringify(again.items.map(i => i.kind))}`);
    } finally { page.dispose(); }
  });

  it('a draft changed before the page is ready: the page gets it', async () => {
    await sb.chat.newConversation();
    const tab = sb.chat.activeTab;
    const page = openEditorPage();
    try {
      assert.equal(resets(page.got).length, 1, 'written with its state');
      // Before the page can have loaded: text typed for the conversation elsewhere (another page, a prompt given back).
      sb.chat.setDraft({ text: 'typed while the page loaded', mentions: [], images: [] }, tab);
      await waitFor('the editor tab\'s page is ready', () => sb.view.surfaceList.find(s => s.id === page.id && s.ready));
      const restored = await waitFor(() => `the draft sent: ${JSON.stringify(page.got.map(m => m.type))}`,
        () => page.got.filter(m => m.type === 'composer/restore').find(m => m.type === 'composer/restore' && m.text === 'typed while the page loaded'), 5000);
      assert.equal(restored.type, 'composer/restore');
    } finally { page.dispose(); }
  });
});
