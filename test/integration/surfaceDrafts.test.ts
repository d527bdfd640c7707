// The side bar and an editor tab of the chat both show one conversation, and the user types in
// both: each keeps its own text. A new page of one (the view hidden and shown again) gets its own
// back, not the other's, and a prompt sent from one (its box emptied) does not clear the other's.
// What a page sends is played with ChatViewProvider.receive; a new page is its `view/ready`.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { HostMessage } from '../../src/common/protocol';
import { api, useScriptedAgent, waitFor } from './helpers';

describe('Two surfaces showing one conversation', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  let tab = '';
  // The conversation is closed (with its drafts): an empty conversation is the next test's too (newConversation keeps it).
  after(async () => { await vscode.commands.executeCommand('workbench.action.closeAllEditors'); if (tab) await sb.chat.closeTab(tab); });

  it('each keeps its own unsent text: a new page gets its own back, and a prompt sent from the other does not clear it', async () => {
    await useScriptedAgent({ turns: [] });
    await sb.chat.newConversation();
    await vscode.commands.executeCommand('switchboard.openChat');
    await waitFor('the side bar\'s page is ready', () => sb.view.surfaceList.find(s => s.id === 'view' && s.ready));
    tab = sb.chat.activeTab;
    await vscode.commands.executeCommand('switchboard.openChatInEditor');
    const editor = await waitFor('an editor tab showing the same conversation', () => sb.view.surfaceList.find(s => s.id !== 'view' && s.ready && s.shows === tab)?.id);
    assert.equal(sb.view.surfaceList.find(s => s.id === 'view')?.shows, tab);

    /** The side bar's page is built anew: what it gets back in its prompt box. */
    const newSideBarPage = (): string | undefined => {
      const got: HostMessage[] = [];
      const sub = sb.view.onDidPost(({ surface, message }) => { if (surface === 'view') got.push(message); });
      try {
        sb.view.receive('view', { type: 'view/ready', tab });
      } finally { sub.dispose(); }
      assert.ok(got.some(m => m.type === 'state/reset'), 'the page got its state');
      const back = got.find(m => m.type === 'composer/restore');
      return back?.type === 'composer/restore' ? back.text : undefined;
    };
    const draft = (surface: string, text: string) => sb.view.receive(surface, { type: 'composer/draft', tab, text, mentions: [], images: [] });

    draft('view', 'typed in the side bar');
    draft(editor, 'typed in the editor tab');
    assert.equal(newSideBarPage(), 'typed in the side bar', 'the side bar gets its own text back, not the editor tab\'s');
    // The editor tab sends its prompt: its box is emptied.
    draft(editor, '');
    assert.equal(newSideBarPage(), 'typed in the side bar', 'the side bar\'s text outlives the editor tab\'s send');
  });
});
