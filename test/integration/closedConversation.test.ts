// A message naming a conversation that was closed meanwhile (the page still showed it, or the
// message was on its way as the user closed it) acts on no other conversation: a prompt goes back
// into the prompt box, never to the conversation shown now (another agent, perhaps); a Stop, a mode
// or an option is ignored. A prompt whose conversation closes while its agent still opens the
// session for it goes back too: the agent never works on a conversation no one sees.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { HostMessage } from '../../src/common/protocol';
import { agentEvents, api, gate, lastOf, useScriptedAgent, waitFor } from './helpers';

describe('A conversation closed meanwhile', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  /** Two conversations with the agent; the first is closed. Returns the closed one's id and the shown one. */
  async function closeOne() {
    const closed = sb.chat.activeTab;
    assert.equal(await sb.chat.sendPrompt('first'), 'sent');
    await sb.chat.newConversation();
    const shown = sb.chat.active;
    assert.notEqual(shown.id, closed);
    await sb.chat.closeTab(closed);
    assert.equal(sb.chat.activeTab, shown.id);
    return { closed, shown };
  }

  const prompts = (log: string) => agentEvents(log).filter(e => e.event === 'prompt')
    .map(e => (e.params as { prompt: { text?: string }[] }).prompt.map(b => b.text ?? '').join(''));

  it('a prompt sent for it goes back into the prompt box, never to the conversation shown now', async () => {
    const { log } = await useScriptedAgent({ turns: [] });
    await vscode.commands.executeCommand('switchboard.openChat');
    await waitFor('the side bar\'s page is ready', () => sb.view.surfaceList.find(s => s.id === 'view' && s.ready));
    const { closed, shown } = await closeOne();
    const posted: HostMessage[] = [];
    const sub = sb.view.onDidPost(({ surface, message }) => { if (surface === 'view') posted.push(message); });
    try {
      sb.view.receive('view', { type: 'prompt/send', tab: closed, text: 'for the closed one', mentions: ['src/a.ts'], images: [] });
      const back = await waitFor('the prompt back in the box, or sent elsewhere', () =>
        posted.find(m => m.type === 'composer/restore') ?? (lastOf(shown.items, 'user')?.text === 'for the closed one' && 'sent'), 5_000);
      assert.deepEqual(shown.items.filter(i => i.kind === 'user').map(i => i.text), [], 'nothing reached the conversation shown now');
      assert.deepEqual(back, { type: 'composer/restore', text: 'for the closed one', mentions: ['src/a.ts'], images: [] });
      assert.deepEqual(prompts(log), ['first'], 'the agent got no other prompt');
      assert.equal(await sb.chat.sendPrompt('x', [], [], closed), 'closed');
    } finally {
      sub.dispose();
    }
  });

  it('closed while its agent still opens the session for its prompt: the prompt goes back, the agent never gets it, the session is closed', async () => {
    const go = gate('closed-conversation-session');
    const { log } = await useScriptedAgent({ agentCapabilities: { sessionCapabilities: { close: {} } }, turns: [], gates: { 'session/new': go.path } });
    const tab = sb.chat.activeTab;
    const sending = sb.chat.sendPrompt('for the closing one');
    try {
      await waitFor('the agent asked for a session', () => agentEvents(log).some(e => e.event === 'session/new'));
      await sb.chat.closeTab(tab);
      go.open();
      assert.equal(await sending, 'closed');
      assert.deepEqual(prompts(log), [], 'the agent got no prompt');
      // The session the agent opened for no one is closed (it offers session/close): it holds nothing.
      const opened = agentEvents(log).filter(e => e.event === 'session/new').length;
      assert.equal(opened, 1);
      const closes = agentEvents(log).filter(e => e.event === 'session/close');
      assert.equal(closes.length, 1, `session/close sent ${closes.length} times`);
    } finally {
      go.open();
    }
  });

  it('a Stop, a mode or an option for it leaves the turn of the conversation shown now alone', async () => {
    const go = gate('closed-conversation-stop');
    await useScriptedAgent({ turns: [
      { match: '^hold$', steps: [{ type: 'text', text: 'working' }, { type: 'awaitFile', path: go.path }, { type: 'text', text: ' done' }] },
    ] });
    const { closed, shown } = await closeOne();
    const turn = sb.chat.sendPrompt('hold');
    try {
      await waitFor('the agent working', () => lastOf(shown.items, 'agent')?.text === 'working');
      await sb.chat.cancelTurn(closed);
      await sb.chat.setMode('no-such-mode', closed);
      await sb.chat.setConfigOption('no-such-option', 'x', closed);
      assert.equal(shown.busy, true, 'the turn still runs');
      assert.equal(lastOf(shown.items, 'error'), undefined, JSON.stringify(lastOf(shown.items, 'error')));
      go.open();
      assert.equal(await turn, 'sent');
      assert.equal(lastOf(shown.items, 'agent')?.text, 'working done');
    } finally {
      go.open();
    }
  });
});
