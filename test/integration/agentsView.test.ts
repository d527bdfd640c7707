// The Agents view and the count of conversations waiting for the user (issue 19.2), with two scripted
// agents at once; closing and deleting a conversation end it on the agent's side too.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { ChatSession } from '../../src/session/chatSession';
import { agentEvents, dump, gate, lastOf, severalAgentsSuite, useScriptedAgents, waitFor } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';

describe('Agents view and conversations waiting for you', () => {
  const suite = severalAgentsSuite();
  let sb: SwitchboardApi;
  before(() => { sb = suite.sb; });
  const tabWith = suite.tabWith;

  /** What the view shows: agent → [conversation, its status line]. */
  const shown = () => sb.agents.nodes().map(a => [a.name, a.conversations.map(c => [c.id, c.description])] as const);
  const rowOf = (tab: ChatSession) => sb.agents.nodes().flatMap(a => a.conversations).find(c => c.id === tab.id);

  it('A waits on a permission while B streams: the view shows each, the status bar counts A, a notification names it; the count opens it', async () => {
    const go = gate('b-streams');
    const ask = gate('a-asks');
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'text', text: 'A here. ' }, { type: 'waitFile', path: ask.path }, { type: 'permission', toolCall: { toolCallId: 'p1', title: 'Run the tests' } }, { type: 'text', text: 'A allowed.' }] }] },
      [B]: { turns: [{ steps: [{ type: 'chunks', count: 200, texts: ['b{{n}} '] }, { type: 'waitFile', path: go.path }, { type: 'chunks', count: 200, texts: ['c{{n}} '] }] }] },
    });
    const tabB = await tabWith(agents[B].spec);
    const notices: string[] = [];
    const listener = sb.waiting.onNotify(text => notices.push(text));
    try {
      const turnB = sb.chat.sendPrompt('stream');
      await waitFor(() => `B works: ${JSON.stringify(shown())}`, () => rowOf(tabB)?.status === 'working');
      const tabA = await tabWith(agents[A].spec);
      const turnA = sb.chat.sendPrompt('test it');
      await waitFor(() => `A works: ${JSON.stringify(shown())}`, () => rowOf(tabA)?.status === 'working');
      // B's conversation is shown when A's starts waiting.
      sb.chat.selectTab(tabB.id);
      ask.open();
      await waitFor(() => `A asks: ${dump(tabA.items)}`, () => lastOf(tabA.items, 'permission'));
      await waitFor(() => `the view: ${JSON.stringify(shown())}`, () => rowOf(tabA)?.status === 'waiting' && rowOf(tabB)?.status === 'working');
      assert.equal(rowOf(tabA)!.description, 'waiting for you: permission');
      assert.match(rowOf(tabA)!.tooltip, /Open requests: permission × 1/);
      const nodes = sb.agents.nodes();
      assert.deepEqual(nodes.filter(a => a.name === A || a.name === B).map(a => [a.name, a.phase]), [[B, 'ready'], [A, 'ready']]);
      assert.match(nodes.find(a => a.name === A)!.description, /1 waiting for you/);
      await waitFor(() => `the status bar: ${sb.waiting.text}`, () => sb.waiting.text === '$(bell-dot) Scripted A is waiting for you');
      await waitFor(() => `a notification: ${JSON.stringify(notices)}`, () => notices.length > 0);
      assert.deepEqual(notices, [`“${tabA.info.title}” (Scripted A) is waiting for you: permission.`]);

      await vscode.commands.executeCommand('switchboard.focusWaiting');
      assert.equal(sb.chat.activeTab, tabA.id, 'the click opens the conversation that waits');
      sb.chat.answerPermission(lastOf(tabA.items, 'permission')!.id, 'allow', tabA.id);
      assert.equal(await turnA, 'sent');
      await waitFor(() => `the status bar hides: ${sb.waiting.text}`, () => sb.waiting.text === undefined);
      assert.equal(rowOf(tabA)?.status, 'done');
      assert.equal(rowOf(tabB)?.status, 'working', 'B streams on');
      go.open();
      assert.equal(await turnB, 'sent');
      await waitFor(() => `B done: ${JSON.stringify(shown())}`, () => rowOf(tabB)?.status === 'done');
      assert.equal(notices.length, 1, 'one notification for one wait');
    } finally {
      listener.dispose();
      go.open();
      ask.open();
    }
  });

  it('a write waiting for review makes its conversation wait for a review; rejected, it works on', async () => {
    const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'agents-view-review.txt');
    const agents = await useScriptedAgents({ [A]: { turns: [{ steps: [{ type: 'write', path: file, content: 'new\n' }, { type: 'text', text: 'after the review' }] }] } });
    const tab = await tabWith(agents[A].spec);
    const turn = sb.chat.sendPrompt('write it');
    try {
      await waitFor(() => `a review waits: ${JSON.stringify(shown())} ${dump(tab.items)}`, () => rowOf(tab)?.description === 'waiting for you: review');
      assert.match(rowOf(tab)!.tooltip, /Open requests: review × 1/);
      await waitFor(() => `the status bar: ${sb.waiting.text}`, () => sb.waiting.text === '$(bell-dot) Scripted A is waiting for you');
    } finally {
      for (const r of sb.files.reviews) r.reject();
    }
    assert.equal(await turn, 'sent');
    await waitFor(() => `done: ${JSON.stringify(shown())}`, () => rowOf(tab)?.status === 'done');
    await waitFor(() => `the status bar hides: ${sb.waiting.text}`, () => sb.waiting.text === undefined);
    assert.ok(!fs.existsSync(file), 'nothing written');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a crashed agent and its conversation say crashed in the view; Restart from the view starts it again', async () => {
    const agents = await useScriptedAgents({
      [A]: { turns: [{ match: '^crash', steps: [{ type: 'crash', message: 'A fell over' }] }, { steps: [{ type: 'text', text: 'back' }] }] },
    });
    const tab = await tabWith(agents[A].spec);
    await sb.chat.sendPrompt('crash now');
    await waitFor(() => `crashed: ${JSON.stringify(sb.agents.nodes())}`, () => rowOf(tab)?.status === 'crashed');
    const agent = sb.agents.nodes().find(a => a.name === A)!;
    assert.equal(agent.phase, 'crashed');
    assert.equal(agent.contextValue, 'switchboard.agent.stopped');
    await vscode.commands.executeCommand('switchboard.agents.restart', agent);
    await waitFor(() => `running again: ${JSON.stringify(sb.agents.nodes())}`, () => sb.agents.nodes().find(a => a.name === A)?.phase === 'ready');
    assert.ok(sb.chat.agentPidOf(A));
  });

  it('closing a tab ends its session (session/close); deleting a conversation deletes it on the agent\'s side (session/delete)', async () => {
    const agents = await useScriptedAgents({
      [A]: { agentCapabilities: { sessionCapabilities: { close: {}, delete: {} } }, turns: [{ steps: [{ type: 'text', text: 'ok' }] }] },
    });
    assert.equal(await sb.chat.sendPrompt('one'), 'sent');
    const first = sb.chat.active;
    const firstSession = first.sessionId!;
    await sb.chat.newConversation();
    assert.equal(await sb.chat.sendPrompt('two'), 'sent');
    const second = sb.chat.active;
    const secondSession = second.sessionId!;

    await vscode.commands.executeCommand('switchboard.closeConversation', first.id);
    const events = () => agentEvents(agents[A].log).filter(e => e.event === 'session/close' || e.event === 'session/delete')
      .map(e => [e.event, (e.params as { sessionId: string }).sessionId]);
    assert.deepEqual(events(), [['session/close', firstSession]]);

    sb.chat.ui.confirm = async () => false;
    assert.equal(await sb.chat.deleteConversation(second.id), false);
    assert.ok(sb.chat.tabInfos.some(t => t.id === second.id), 'declined: kept');
    sb.chat.ui.confirm = async () => true;
    await vscode.commands.executeCommand('switchboard.deleteConversation', second.id);
    assert.ok(!sb.chat.tabInfos.some(t => t.id === second.id));
    assert.deepEqual(events(), [['session/close', firstSession], ['session/close', secondSession], ['session/delete', secondSession]]);
  });
});
