// The chat in the side bar and in an editor tab at once (issue 19): each surface shows its own
// conversation while both stream, and what is sent from a surface goes to the conversation it shows.
// What a surface shows is read from what its page was sent (ChatViewProvider.onDidPost), applied
// the way the page applies it: a reset, the tab strip's selection, the ops of the tab it shows.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/common/protocol';
import { agentEvents, gate, severalAgentsSuite, useScriptedAgents, waitFor } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';

/** What one surface's page shows: the conversation it shows and its agent's text. */
class PageMirror {
  shown: string | undefined;
  private agentText = new Map<string, string>();
  apply(m: HostMessage): void {
    if (m.type === 'state/reset') {
      this.shown = m.activeTab;
      this.agentText = new Map(m.items.flatMap(i => (i.kind === 'agent' ? [[i.id, i.text] as const] : [])));
    } else if (m.type === 'tabs') this.shown = m.activeTab;
    else if (m.type === 'transcript/ops' && m.tab === this.shown) {
      for (const op of m.ops) {
        if (op.op === 'append') { if (this.agentText.has(op.id)) this.agentText.set(op.id, this.agentText.get(op.id)! + op.text); }
        else if (op.item.kind === 'agent') this.agentText.set(op.item.id, op.item.text);
      }
    }
  }
  get text(): string { return [...this.agentText.values()].join(''); }
}

describe('Chat surfaces: the side bar and an editor tab', () => {
  const suite = severalAgentsSuite();
  after(async () => { await vscode.commands.executeCommand('workbench.action.closeAllEditors'); });

  it('each shows its own conversation while both stream, and a prompt sent from the editor tab goes to its conversation', async () => {
    const sb = suite.sb;
    const goA = gate('surfaces-a');
    const goB = gate('surfaces-b');
    const agents = await useScriptedAgents({
      [A]: { turns: [{ match: '^stream', steps: [{ type: 'chunks', count: 30, texts: ['alpha{{n}} '] }, { type: 'waitFile', path: goA.path }, { type: 'chunks', count: 30, texts: ['alpha{{n}} '] }] }] },
      [B]: { turns: [
        { match: '^stream', steps: [{ type: 'chunks', count: 30, texts: ['beta{{n}} '] }, { type: 'waitFile', path: goB.path }, { type: 'chunks', count: 30, texts: ['beta{{n}} '] }] },
        { match: '^hello', steps: [{ type: 'text', text: 'B heard you.' }] },
      ] },
    });
    const pages = new Map<string, PageMirror>();
    const sub = sb.view.onDidPost(({ surface, message }) => {
      if (!pages.has(surface)) pages.set(surface, new PageMirror());
      pages.get(surface)!.apply(message);
    });
    try {
      // The side bar, on a conversation with A.
      await vscode.commands.executeCommand('switchboard.openChat');
      const tabA = await suite.tabWith(agents[A].spec);
      await waitFor('the side bar shows A\'s conversation', () => pages.get('view')?.shown === tabA.id);
      // The chat in an editor tab too; there, a new conversation, with B.
      await vscode.commands.executeCommand('switchboard.openChatInEditor');
      const editor = await waitFor('the editor tab\'s page is ready', () => sb.view.surfaceList.find(s => s.id !== 'view' && s.ready)?.id);
      await waitFor('the editor tab shows a conversation', () => pages.get(editor)?.shown);
      sb.view.receive(editor, { type: 'tab/new' });
      await waitFor('a new conversation in the editor tab', () => pages.get(editor)!.shown !== tabA.id);
      // Its session with the running agent (A) opened first: B chosen while it still opens would race it.
      await waitFor('the new conversation\'s session', () => sb.chat.sessions.find(t => t.id === pages.get(editor)!.shown)?.sessionId);
      assert.equal(await sb.chat.start(agents[B].spec), true);
      // Chosen while the editor tab's conversation is current (its page was used last), B takes it.
      const tabB = sb.chat.sessions.find(t => t.id === pages.get(editor)!.shown)!;
      assert.equal(tabB.agentName, B, JSON.stringify({ current: sb.chat.activeTab, surfaces: sb.view.surfaceList, tabs: sb.chat.tabInfos }));
      await waitFor(() => `the editor tab shows B's conversation (${pages.get(editor)!.shown})`, () => pages.get(editor)!.shown === tabB.id);
      assert.equal(pages.get('view')!.shown, tabA.id, 'the side bar still shows A\'s conversation');

      // Each page sends its prompt with the conversation it shows; both stream at once.
      const send = (surface: string, text: string) => sb.view.receive(surface, { type: 'prompt/send', tab: pages.get(surface)!.shown, text, mentions: [], images: [] });
      send('view', 'stream A');
      send(editor, 'stream B');
      await waitFor(() => `both streaming (side: ${pages.get('view')!.text.slice(-40)} / editor: ${pages.get(editor)!.text.slice(-40)})`,
        () => pages.get('view')!.text.includes('alpha29 ') && pages.get(editor)!.text.includes('beta29 '));
      assert.ok(tabA.busy && tabB.busy, 'both turns run');
      goA.open();
      goB.open();
      await waitFor('both turns ended', () => !tabA.busy && !tabB.busy);
      await waitFor('the side bar shows all of A\'s answer', () => (pages.get('view')!.text.match(/alpha\d+ /g) ?? []).length === 60);
      await waitFor('the editor tab shows all of B\'s answer', () => (pages.get(editor)!.text.match(/beta\d+ /g) ?? []).length === 60);
      assert.doesNotMatch(pages.get('view')!.text, /beta/, 'none of B\'s text in the side bar');
      assert.doesNotMatch(pages.get(editor)!.text, /alpha/, 'none of A\'s text in the editor tab');
      assert.equal(pages.get('view')!.shown, tabA.id);
      assert.equal(pages.get(editor)!.shown, tabB.id);

      // A prompt typed in the editor tab (the side bar used last) reaches B.
      sb.view.receive('view', { type: 'composer/draft', tab: tabA.id, text: 'typing in the side bar', mentions: [], images: [] });
      send(editor, 'hello from the editor tab');
      await waitFor('B answered', () => pages.get(editor)!.text.includes('B heard you.'));
      const prompts = (log: string) => agentEvents(log).filter(e => e.event === 'prompt')
        .map(e => (e.params as { prompt: { type: string; text?: string }[] }).prompt.map(b => b.text ?? '').join(''));
      assert.deepEqual(prompts(agents[B].log), ['stream B', 'hello from the editor tab']);
      assert.deepEqual(prompts(agents[A].log), ['stream A']);
      assert.equal(pages.get('view')!.shown, tabA.id, 'the side bar still shows A\'s conversation');

      // The Agents view's Open on A's conversation, the editor tab used last: shown where it is (the
      // side bar), the editor tab keeps B's; A's is the current one.
      await sb.agents.open(tabA.id);
      assert.equal(sb.chat.activeTab, tabA.id);
      assert.equal(pages.get('view')!.shown, tabA.id);
      assert.equal(pages.get(editor)!.shown, tabB.id, 'the editor tab still shows B\'s conversation');

      // Fork Conversation (A offers no session/fork): the fork opens where A's conversation was
      // shown, its summary in that surface's prompt box only.
      const inserted: string[] = [];
      const inserts = sb.view.onDidPost(({ surface, message }) => { if (message.type === 'composer/insert') inserted.push(surface); });
      try {
        await vscode.commands.executeCommand('switchboard.forkConversation');
        await waitFor('the fork\'s summary in a prompt box', () => inserted.length > 0);
      } finally { inserts.dispose(); }
      assert.deepEqual(inserted, ['view']);
      assert.equal(pages.get('view')!.shown, sb.chat.activeTab, 'the side bar shows the fork');
      assert.notEqual(sb.chat.activeTab, tabA.id);
      assert.equal(pages.get(editor)!.shown, tabB.id, 'the editor tab still shows B\'s conversation');
    } finally {
      sub.dispose();
      goA.open();
      goB.open();
    }
  });

  it("each surface's title-bar buttons act on the conversation it shows, not on the surface used last", async () => {
    const sb = suite.sb;
    const agents = await useScriptedAgents({ [A]: { turns: [] }, [B]: { turns: [] } });
    // What the user clicks: the command of the button in the side bar's title, or in the editor tab's.
    const menus = (vscode.extensions.getExtension('switchboard-acp.switchboard-acp'))!.packageJSON.contributes.menus;
    const titleCommand = (menu: 'view/title' | 'editor/title', name: string): string => {
      const entry = (menus[menu] as { command: string; when?: string }[]).find(m => m.command.endsWith(`.${name}`) && /switchboard\.chat\b/.test(m.when ?? ''));
      assert.ok(entry, `a ${name} button in ${menu}`);
      return entry.command;
    };
    await vscode.commands.executeCommand('switchboard.openChat');
    const tabA = await suite.tabWith(agents[A].spec);
    await waitFor('the side bar shows A\'s conversation', () => sb.view.surfaceList.find(s => s.id === 'view' && s.ready)?.shows === tabA.id);
    const before = sb.view.surfaceList.map(s => s.id);
    await vscode.commands.executeCommand('switchboard.openChatInEditor');
    const editor = await waitFor('the editor tab\'s page is ready', () => sb.view.surfaceList.find(s => !before.includes(s.id) && s.ready)?.id);
    sb.view.receive(editor, { type: 'view/focus' });
    const tabB = await suite.tabWith(agents[B].spec);
    const shows = (id: string) => sb.view.surfaceList.find(s => s.id === id)?.shows;
    assert.equal(shows(editor), tabB.id, 'the editor tab shows B\'s conversation');
    assert.equal(shows('view'), tabA.id, 'the side bar shows A\'s conversation');
    assert.ok(sb.chat.agentPidOf(A) && sb.chat.agentPidOf(B), 'both agents run');

    // The editor tab used last; Stop Agent in the side bar's title: A stops, B runs on.
    assert.equal(sb.chat.activeTab, tabB.id);
    await vscode.commands.executeCommand(titleCommand('view/title', 'stopAgent'));
    assert.equal(sb.chat.agentPidOf(A), undefined, 'the side bar\'s Stop stopped A');
    assert.ok(sb.chat.agentPidOf(B), 'B still runs');

    // The editor tab used last; New Conversation in the side bar's title: the side bar shows it.
    sb.view.receive(editor, { type: 'view/focus' });
    await vscode.commands.executeCommand(titleCommand('view/title', 'newConversation'));
    assert.equal(shows(editor), tabB.id, 'the editor tab still shows B\'s conversation');
    const fresh = shows('view');
    assert.ok(fresh !== tabA.id && fresh !== tabB.id, 'the side bar shows a new conversation');

    // The side bar used last; New Conversation in the editor tab's title: the editor tab shows it.
    sb.view.receive('view', { type: 'view/focus' });
    sb.chat.sessions.find(t => t.id === fresh)!.addNotice('not empty');
    await vscode.commands.executeCommand(titleCommand('editor/title', 'newConversation'));
    assert.equal(shows('view'), fresh, 'the side bar still shows its conversation');
    assert.ok(![tabA.id, tabB.id, fresh].includes(shows(editor)), 'the editor tab shows a new conversation');
  });
});
