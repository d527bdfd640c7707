// Several agents at once (issue 19): two scripted agents with different names, each in its own tab,
// each with its own process. Starting, crashing or stopping one never touches the other's turns;
// a turn that ends because its agent went away says so where it stopped.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import type { ChatSession } from '../../src/session/chatSession';
import { agentEvents, dump, gate, isRunning, lastOf, severalAgentsSuite, useScriptedAgents, waitFor } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';

/** The agent's answer text in a tab's transcript (all its messages, in order). */
const answer = (tab: ChatSession) => tab.items.filter((i): i is Extract<Item, { kind: 'agent' }> => i.kind === 'agent').map(i => i.text).join('');
const chunks = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i} `).join('');

describe('Several agents at once', () => {
  const suite = severalAgentsSuite();
  let sb: SwitchboardApi;
  before(() => { sb = suite.sb; });
  /** A new tab talking to `spec`'s agent (its own process), shown. */
  const tabWith = suite.tabWith;

  it('agent A streams while agent B starts in another tab and answers: A\'s turn completes with all its chunks', async () => {
    const go = gate('a-streams');
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'chunks', count: 50, texts: ['a{{n}} '] }, { type: 'waitFile', path: go.path }, { type: 'chunks', count: 50, texts: ['b{{n}} '] }] }] },
      [B]: { turns: [{ steps: [{ type: 'text', text: 'B here.' }] }] },
    });
    const tabA = sb.chat.active;
    const turnA = sb.chat.sendPrompt('stream');
    await waitFor(() => `A's first chunks: ${dump(tabA.items)}`, () => answer(tabA).includes('a49 '));
    const pidA = sb.chat.agentPidOf(A)!;

    const tabB = await tabWith(agents[B].spec);
    assert.equal(await sb.chat.sendPrompt('hello B'), 'sent');
    assert.equal(answer(tabB), 'B here.', dump(tabB.items));
    assert.ok(isRunning(pidA), 'agent A still runs');
    assert.notEqual(sb.chat.agentPidOf(B), pidA, 'B has a process of its own');

    go.open();
    assert.equal(await turnA, 'sent');
    assert.equal(answer(tabA), chunks('a', 50) + chunks('b', 50), dump(tabA.items));
    assert.equal(lastOf(tabA.items, 'turnEnd')?.stopReason, 'end_turn');
    assert.equal(tabA.agentName, A);
    assert.equal(agentEvents(agents[A].log).filter(e => e.event === 'exit' || e.event === 'sigterm').length, 0, 'A was never asked to stop');
  });

  it('A crashes while B streams: B finishes, A\'s tab says A stopped', async () => {
    const crash = gate('a-crash');
    const finish = gate('b-finish');
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'text', text: 'A working.' }, { type: 'waitFile', path: crash.path }, { type: 'crash', message: 'A fell over' }] }] },
      [B]: { turns: [{ steps: [{ type: 'text', text: 'B part one. ' }, { type: 'waitFile', path: finish.path }, { type: 'chunks', count: 30, texts: ['c{{n}} '] }, { type: 'text', text: 'B done.' }] }] },
    });
    const tabA = sb.chat.active;
    const turnA = sb.chat.sendPrompt('work');
    await waitFor(() => `A working: ${dump(tabA.items)}`, () => answer(tabA) === 'A working.');
    const tabB = await tabWith(agents[B].spec);
    const turnB = sb.chat.sendPrompt('stream');
    await waitFor(() => `B streams: ${dump(tabB.items)}`, () => answer(tabB) === 'B part one. ');

    crash.open();
    const error = await waitFor(() => `A's tab says A stopped: ${dump(tabA.items)}`, () => lastOf(tabA.items, 'error'));
    assert.match(error.message, /Scripted A/);
    await turnA;
    assert.equal(tabA.busy, false);
    assert.equal(tabB.busy, true, 'B still works');

    finish.open();
    assert.equal(await turnB, 'sent');
    assert.equal(answer(tabB), 'B part one. ' + chunks('c', 30) + 'B done.', dump(tabB.items));
    assert.equal(lastOf(tabB.items, 'turnEnd')?.stopReason, 'end_turn');
    assert.equal(lastOf(tabB.items, 'error'), undefined, dump(tabB.items));
    assert.ok(sb.chat.agentPidOf(B), 'B runs on');
    assert.equal(sb.chat.agentPidOf(A), undefined);
  });

  it('one agent waits on a permission while the other streams; each answer goes to its own agent', async () => {
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'permission', toolCall: { toolCallId: 'p1', title: 'Run the tests' } }, { type: 'text', text: 'A allowed.' }] }] },
      [B]: { turns: [{ steps: [{ type: 'chunks', count: 100, texts: ['d{{n}} '] }] }] },
    });
    const tabA = sb.chat.active;
    const turnA = sb.chat.sendPrompt('test it');
    const permission = await waitFor(() => `A asks: ${dump(tabA.items)}`, () => lastOf(tabA.items, 'permission'));

    const tabB = await tabWith(agents[B].spec);
    assert.equal(await sb.chat.sendPrompt('stream'), 'sent');
    assert.equal(answer(tabB), chunks('d', 100), dump(tabB.items));
    assert.equal(tabA.waiting, true, 'A still waits for the answer');
    assert.equal(lastOf(tabA.items, 'permission')?.permission.outcome, undefined);

    sb.chat.answerPermission(permission.id, 'allow', tabA.id);
    assert.equal(await turnA, 'sent');
    // The scripted agent reports the answer it got, then goes on.
    assert.equal(answer(tabA), 'permission: allow\nA allowed.', dump(tabA.items));
    assert.ok(agentEvents(agents[A].log).some(e => e.event === 'result' && e.type === 'permission' && JSON.stringify(e).includes('allow')), JSON.stringify(agentEvents(agents[A].log)));
  });

  it('a flood from one agent never delays another conversation: B\'s permission request shows while A\'s burst still streams (issue 23)', async () => {
    // 20,000 tool calls (80,000 updates): seconds of work for the host however fast the machine,
    // against the few milliseconds B's request takes.
    const calls = 20_000;
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'burst', kind: 'tools', count: calls }, { type: 'text', text: 'A done.' }] }] },
      [B]: { turns: [{ steps: [{ type: 'permission', toolCall: { toolCallId: 'q1', title: 'Run the tests' } }, { type: 'text', text: 'B allowed.' }] }] },
    });
    const tabA = sb.chat.active;
    const turnA = sb.chat.sendPrompt('flood');
    const tools = () => tabA.items.filter(i => i.kind === 'tool').length;
    await waitFor(() => `A's burst starts: ${tools()} cards`, () => tools() > 0);

    const tabB = await tabWith(agents[B].spec);
    const turnB = sb.chat.sendPrompt('ask');
    const permission = await waitFor(() => `B asks: ${dump(tabB.items)}`, () => lastOf(tabB.items, 'permission'));
    const shown = tools();
    assert.ok(shown < calls, `B's request came after A's whole burst (${shown} of ${calls} cards)`);
    assert.equal(lastOf(tabA.items, 'turnEnd'), undefined, 'A is still streaming');

    sb.chat.answerPermission(permission.id, 'allow', tabB.id);
    assert.equal(await turnB, 'sent');
    assert.equal(answer(tabB), 'permission: allow\nB allowed.', dump(tabB.items));
    await sb.chat.stop();
    await turnA;
  });

  it('a tab closed during a permission: the request is answered cancelled, the other tab of the same agent streams on', async () => {
    const go = gate('a-second');
    const agents = await useScriptedAgents({
      [A]: { turns: [
        { match: '^ask', steps: [{ type: 'permission', toolCall: { toolCallId: 'p1', title: 'Delete the build' } }, { type: 'text', text: 'never shown' }] },
        { match: '^stream', steps: [{ type: 'text', text: 'A streams. ' }, { type: 'waitFile', path: go.path }, { type: 'chunks', count: 40, texts: ['e{{n}} '] }] },
      ] },
    });
    const tab1 = sb.chat.active;
    // The review follows turns by these events: a turn that starts must end, or its changes and
    // every later turn's are attributed wrongly.
    const phases: string[] = [];
    const listener = sb.chat.onTurn(({ tab, phase }) => { if (tab === tab1) phases.push(phase); });
    const asking = sb.chat.sendPrompt('ask');
    await waitFor(() => `A asks: ${dump(tab1.items)}`, () => lastOf(tab1.items, 'permission'));
    await sb.chat.newConversation();
    const tab2 = sb.chat.active;
    const streaming = sb.chat.sendPrompt('stream');
    await waitFor(() => `A streams in tab 2: ${dump(tab2.items)}`, () => answer(tab2) === 'A streams. ');
    const pid = sb.chat.agentPidOf(A)!;

    await sb.chat.closeTab(tab1.id);
    listener.dispose();
    assert.deepEqual(phases, ['start', 'end'], 'the closed tab\'s turn ended');
    assert.equal(await asking, 'sent');
    assert.ok(!sb.chat.tabInfos.some(t => t.id === tab1.id));
    go.open();
    assert.equal(await streaming, 'sent');
    assert.equal(answer(tab2), 'A streams. ' + chunks('e', 40), dump(tab2.items));
    assert.equal(sb.chat.agentPidOf(A), pid, 'the agent runs on');
    const log = agentEvents(agents[A].log);
    assert.ok(log.some(e => e.event === 'result' && e.type === 'permission' && JSON.stringify(e).includes('cancelled')), JSON.stringify(log));
    assert.ok(!log.some(e => e.event === 'result' && e.type === 'permission' && JSON.stringify(e).includes('"allow')), 'never allowed');
  });

  it('stopping an agent whose turn runs in another tab asks first; declined, nothing stops; agreed, that turn says it was stopped', async () => {
    const go = gate('a-stop');
    await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'text', text: 'A working.' }, { type: 'waitFile', path: go.path }, { type: 'text', text: 'never shown' }] }] },
    });
    const tab1 = sb.chat.active;
    const turn1 = sb.chat.sendPrompt('work');
    await waitFor(() => `A working: ${dump(tab1.items)}`, () => answer(tab1) === 'A working.');
    const pid = sb.chat.agentPidOf(A)!;
    await sb.chat.newConversation();
    assert.equal(sb.chat.active.agentName, A, 'a new conversation takes the shown one\'s agent');

    const asked: string[] = [];
    sb.chat.ui.confirm = async (message, detail) => { asked.push(`${message} ${detail ?? ''}`); return false; };
    await vscode.commands.executeCommand('switchboard.stopAgent');
    assert.equal(asked.length, 1);
    assert.match(asked[0], /Scripted A/);
    assert.match(asked[0], /work/, 'names the conversation whose turn runs');
    assert.ok(isRunning(pid), 'declined: the agent runs on');
    assert.equal(tab1.busy, true);

    sb.chat.ui.confirm = async (message, detail) => { asked.push(`${message} ${detail ?? ''}`); return true; };
    await vscode.commands.executeCommand('switchboard.stopAgent');
    assert.equal(asked.length, 2);
    await turn1;
    await waitFor('the agent ended', () => !isRunning(pid));
    const last = tab1.items[tab1.items.length - 1];
    assert.equal(last.kind, 'notice', dump(tab1.items));
    assert.match((last as Extract<Item, { kind: 'notice' }>).text, /Scripted A was stopped/);
    assert.ok(!answer(tab1).includes('never shown'));
  });

  it('an idle agent that can resume its sessions stops after the idle time and resumes on the next prompt; a working one runs on', async () => {
    const busy = gate('b-busy');
    const agents = await useScriptedAgents({
      [A]: { agentCapabilities: { sessionCapabilities: { resume: {} } }, turns: [] },
      [B]: { agentCapabilities: { sessionCapabilities: { resume: {} } }, turns: [{ steps: [{ type: 'text', text: 'B working.' }, { type: 'waitFile', path: busy.path }] }] },
    });
    const tabB = await tabWith(agents[B].spec);
    const turnB = sb.chat.sendPrompt('work');
    await waitFor(() => `B works: ${dump(tabB.items)}`, () => answer(tabB) === 'B working.');
    const tabA = await tabWith(agents[A].spec);
    const config = vscode.workspace.getConfiguration('switchboard');
    try {
      await config.update('agentIdleMinutes', 0.01, vscode.ConfigurationTarget.Global);
      assert.equal(await sb.chat.sendPrompt('hi'), 'sent');
      const session = tabA.sessionId;
      await waitFor(() => `the status to say A stopped for being idle: ${JSON.stringify(sb.chat.status)}`, () => /Scripted A was stopped after it had nothing to do/.test(sb.chat.status.detail));
      assert.equal(sb.chat.agentPidOf(A), undefined);
      assert.equal(tabA.info.state, 'detached');
      assert.ok(sb.chat.agentPidOf(B), 'B, in a turn, runs on');
      assert.equal(tabB.busy, true);
      // On demand again: the same conversation, resumed.
      assert.equal(await sb.chat.sendPrompt('again'), 'sent');
      assert.equal(tabA.sessionId, session);
      assert.deepEqual(tabA.items.filter(i => i.kind === 'user').map(i => (i as Extract<Item, { kind: 'user' }>).text), ['hi', 'again']);
      assert.ok(agentEvents(agents[A].log).some(e => e.event === 'session/resume'), 'the session was resumed');
    } finally {
      await config.update('agentIdleMinutes', undefined, vscode.ConfigurationTarget.Global);
      busy.open();
      await turnB;
    }
  });

  it('agent B chosen for a fresh conversation while its session with A is still opening: the conversation is B\'s', async () => {
    const agents = await useScriptedAgents({
      [A]: { delays: { 'session/new': 1500 }, turns: [{ steps: [{ type: 'text', text: 'A here.' }] }] },
      [B]: { turns: [{ steps: [{ type: 'text', text: 'B here.' }] }] },
    });
    const tab = sb.chat.active;
    const openingA = sb.chat.start(agents[A].spec);
    await waitFor('A asked for a session', () => agentEvents(agents[A].log).some(e => e.event === 'session/new'));
    assert.equal(await sb.chat.start(agents[B].spec), true);
    assert.equal(sb.chat.active, tab, 'no history: the same conversation takes B');
    assert.equal(tab.agentName, B, 'the conversation is B\'s once started');
    await openingA;
    assert.equal(tab.agentName, B, 'and stays B\'s once A\'s session opened');
    assert.equal(await sb.chat.sendPrompt('who?'), 'sent');
    assert.equal(answer(tab), 'B here.', dump(tab.items));
    assert.equal(agentEvents(agents[A].log).filter(e => e.event === 'session/prompt').length, 0, 'A got no prompt');
  });

  it('choosing another agent for a conversation with history asks first, then starts a new conversation', async () => {
    const agents = await useScriptedAgents({ [A]: { turns: [] }, [B]: { turns: [] } });
    assert.equal(await sb.chat.sendPrompt('hi A'), 'sent');
    const tabA = sb.chat.active;
    const tabs = sb.chat.tabInfos.length;
    const asked: string[] = [];
    sb.chat.ui.confirm = async message => { asked.push(message); return false; };
    assert.equal(await sb.chat.start(agents[B].spec), false);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /Scripted B/);
    assert.equal(sb.chat.tabInfos.length, tabs, 'declined: no new conversation');
    assert.equal(sb.chat.active, tabA);
    assert.equal(sb.chat.agentPidOf(B), undefined, 'declined: B does not start');

    sb.chat.ui.confirm = async message => { asked.push(message); return true; };
    assert.equal(await sb.chat.start(agents[B].spec), true);
    assert.notEqual(sb.chat.active, tabA);
    assert.equal(sb.chat.active.agentName, B);
    assert.equal(tabA.agentName, A, 'the old conversation keeps its agent');
    assert.ok(sb.chat.agentPidOf(A), 'and A runs on');
    assert.equal(sb.chat.tabInfos.find(t => t.id === tabA.id)?.state, 'idle');
  });
});
