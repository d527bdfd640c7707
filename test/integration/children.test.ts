// Child-agent sessions and plan operations (ACP, stabilized 2026-11-20), as the user sees them: plans
// kept by id beside the legacy checklist; an agent's helpers (child sessions) as cards in the parent's
// conversation, their requests answered there, Stop reaching them, and unknown session ids refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { agentEvents, api, dump, extensionRoot, gate, useScriptedAgent, waitFor } from './helpers';

const scenario = () => JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'test/fixtures/agent/scripts/children.json'), 'utf8'));
const card = (items: readonly Item[], id: string) => items.find((i): i is Extract<Item, { kind: 'child' }> => i.kind === 'child' && i.child.sessionId === id)?.child;

const entry = (content: string, status = 'pending') => ({ content, priority: 'medium', status });

describe('Plans and child-agent sessions', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  it('advertises plan operations and keeps several plans apart: replaced by planId, removed, the legacy checklist beside them', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'plan', entries: [entry('legacy step')] },
      { type: 'planUpdate', plan: { type: 'items', planId: 'p1', entries: [entry('read'), entry('write')] } },
      { type: 'planUpdate', plan: { type: 'markdown', planId: 'doc', content: '# Design\n\n<img src=x onerror=alert(1)> **bold**' } },
      { type: 'planUpdate', plan: { type: 'file', planId: 'f', uri: 'file:///tmp/PLAN.md' } },
      { type: 'planUpdate', plan: { type: 'items', planId: 'p1', entries: [entry('read', 'completed'), entry('write', 'in_progress')] } },
      { type: 'planRemoved', planId: 'f' },
    ] }] });
    await sb.chat.sendPrompt('plan it');
    const init = agentEvents(log).find(e => e.event === 'initialize')!.params as Record<string, any>;
    assert.ok(init, 'initialize logged');
    const meta = sb.chat.active.meta;
    assert.deepEqual(meta.plan, [entry('legacy step')], 'the legacy plan keeps working');
    assert.deepEqual(meta.plans, [
      { type: 'items', planId: 'p1', entries: [entry('read', 'completed'), entry('write', 'in_progress')] },
      { type: 'markdown', planId: 'doc', content: '# Design\n\n<img src=x onerror=alert(1)> **bold**' },
    ], dump(sb.chat.items));
    assert.equal(sb.chat.items.filter(i => i.kind === 'agent').length, 0, 'no plan fell back into the conversation as text');
  });

  it('shows child agents as cards with their own transcript; a child\'s permission and question are asked in the parent naming it; its write is reviewed as the conversation\'s; unknown ids stay refused', async () => {
    const { log } = await useScriptedAgent(scenario());
    const cwd = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const notes = path.join(cwd, 'child-notes.md');
    fs.rmSync(notes, { force: true });
    // The Writer also edits a file in its own process, as Claude's Edit tool does (no fs/write).
    const edited = path.join(cwd, 'child-edit.txt');
    fs.writeFileSync(edited, 'first line\nsecond line\n');
    const sent = sb.chat.sendPrompt('split it');
    // The Writer's permission request: in the parent's chat, naming the child and its task.
    const ask = await waitFor('the Writer\'s permission request', () => sb.chat.items.find((i): i is Extract<Item, { kind: 'permission' }> => i.kind === 'permission' && !i.permission.outcome));
    assert.deepEqual(ask.permission.from, { title: 'Writer', task: 'Write the notes' });
    assert.equal(card(sb.chat.items, 'child-writer')?.state, 'needsYou');
    const tab = sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)!;
    assert.equal(tab.state, 'waiting');
    assert.equal(tab.waitingIn, 'Writer');
    sb.chat.answerPermission(ask.id, 'allow');
    // Explore's question: in the parent's chat too, naming the child and its task.
    const question = await waitFor('Explore\'s question', () => sb.chat.items.find((i): i is Extract<Item, { kind: 'question' }> => i.kind === 'question' && !i.question.outcome));
    assert.equal(question.question.message, 'Explore (Find the tests) asks: Which folder holds the tests?');
    const asking = sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)!;
    assert.deepEqual([asking.state, asking.waitingIn], ['waiting', 'Explore'], 'a child\'s question names it in the tab\'s state too');
    // Explore's own tab, opened while it waits: its work so far, not the parent's, and no request to answer there.
    sb.view.childTabs.show(sb.chat.activeTab, 'child-explore');
    const exploreTab = () => sb.view.childTabs.tabs.find(t => t.childId === 'child-explore')!;
    const tabText = () => exploreTab().items.map(i => i.kind === 'agent' || i.kind === 'thought' ? `${i.kind}: ${i.text}` : i.kind === 'tool' ? `tool: ${i.tool.title}` : i.kind === 'child' ? `child: ${i.child.title}` : i.kind);
    assert.equal(exploreTab().title, `Explore (helper in ${asking.title})`);
    await waitFor('the editor tab of Explore', () => vscode.window.tabGroups.all.flatMap(g => g.tabs).some(t => t.label === exploreTab().title) || undefined);
    assert.deepEqual(tabText(), ['sessionMessage', 'thought: Looking for test files']);
    await sb.chat.answerQuestion(question.id, 'accept', {});
    const review = await waitFor('the review of the Writer\'s write', () => sb.files.reviews.find(r => r.path === notes));
    const row = sb.agents.nodes().flatMap(a => a.conversations).find(c => c.id === sb.chat.activeTab);
    assert.deepEqual([row?.status, row?.waitingFor], ['waiting', ['review']], 'the Agents view counts the child\'s held write as its conversation waiting for a review');
    review.accept();
    await sent;
    await waitFor('the turn end', () => sb.chat.items.at(-1)?.kind === 'turnEnd' || undefined);
    const items = sb.chat.items;
    // Cards: title, task, state, tool calls; the nested child under its parent; the dropped one stopped.
    const explore = card(items, 'child-explore')!;
    assert.deepEqual([explore.title, explore.task, explore.state, explore.stopReason, explore.toolCalls, explore.depth], ['Explore', 'Find the tests', 'idle', 'end_turn', 1, 1], dump(items));
    const grep = card(items, 'child-grep')!;
    assert.deepEqual([grep.depth, grep.parentSessionId, grep.toolCalls], [2, 'child-explore', 1]);
    assert.equal(items.find(i => i.kind === 'child' && i.child.sessionId === 'child-grep')?.inChild, 'child-explore', 'the nested card is in its parent\'s transcript');
    assert.deepEqual([card(items, 'child-dropped')?.state, card(items, 'child-dropped')?.stopReason], ['idle', 'cancelled']);
    // Each child's own transcript: its messages, thoughts and tool calls, apart from the parent's.
    const own = (id: string) => items.filter(i => i.inChild === id).map(i => i.kind === 'agent' || i.kind === 'thought' ? `${i.kind}: ${i.text}` : i.kind === 'tool' ? `tool: ${i.tool.title}` : i.kind);
    assert.deepEqual(own('child-explore'), ['sessionMessage', 'thought: Looking for test files', 'tool: Read package.json', 'child', 'sessionMessage', 'agent: The tests are in test/.']);
    assert.deepEqual(own('child-grep'), ['tool: grep -r describe(', 'agent: Three files call describe(.']);
    // The tab followed live: the rest of Explore's work, its own child (folded under its card) and nothing of the parent's.
    await waitFor('Explore\'s answer in its tab', () => tabText().includes('agent: The tests are in test/.') || undefined);
    assert.deepEqual(tabText(), ['sessionMessage', 'thought: Looking for test files', 'tool: Read package.json', 'child: Grep', 'tool: grep -r describe(', 'agent: Three files call describe(.', 'sessionMessage', 'agent: The tests are in test/.']);
    assert.deepEqual(exploreTab().items.map(i => i.inChild ?? ''), ['', '', '', '', 'child-grep', 'child-grep', '', ''], 'Explore\'s items are the tab\'s own; Grep\'s fold under its card');
    await vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.label === exploreTab().title));
    await waitFor('the tab closed', () => sb.view.childTabs.tabs.length === 0 || undefined);
    // Messages between sessions in both transcripts, with who sent them to whom.
    const messages = items.filter((i): i is Extract<Item, { kind: 'sessionMessage' }> => i.kind === 'sessionMessage').map(m => `${m.inChild ?? 'parent'}: ${m.from} → ${m.to}: ${m.text}`);
    assert.ok(messages.includes('parent: Scripted → Explore: Find the tests of the parser.'), messages.join('\n'));
    assert.ok(messages.includes('child-explore: Scripted → Explore: Find the tests of the parser.'), messages.join('\n'));
    assert.ok(messages.includes('parent: Explore → Scripted: Found 3 test files.'), messages.join('\n'));
    // The parent's own messages stay its own: nothing of its children's text mixed in.
    assert.deepEqual(items.filter(i => i.kind === 'agent' && !i.inChild).map(i => (i as { text: string }).text), ['I\'ll split this up between helpers.\n', 'All helpers are done.']);
    // The child's write: reviewed, written, listed in the conversation's changes.
    assert.equal(fs.readFileSync(notes, 'utf8'), 'written by the Writer helper\n');
    await waitFor('the write in the turn\'s changes', () => sb.review.changesOf(notes).length > 0 || undefined);
    const listed = sb.review.views().flatMap(t => t.files).find(f => f.path === notes) as { by?: string } | undefined;
    assert.equal(listed?.by, 'Writer', 'the change list names the child that made the change');
    // Its in-process edit: listed, named by the child too.
    assert.equal(fs.readFileSync(edited, 'utf8'), 'edited by the Writer\nsecond line\n');
    await waitFor('the in-process edit in the turn\'s changes', () => sb.review.changesOf(edited).length > 0 || undefined);
    const editListed = sb.review.views().flatMap(t => t.files).find(f => f.path === edited) as { by?: string } | undefined;
    assert.equal(editListed?.by, 'Writer', 'the change list names the child whose tool call edited the file');
    // A helper's cost adds to the conversation's; its tokens are counted apart from the conversation's own context.
    const usage = sb.chat.active.meta.usage;
    assert.deepEqual(usage?.cost, { amount: 1.25, currency: 'USD' });
    assert.deepEqual([usage?.used, usage?.size, usage?.helpers], [5000, 200000, { tokens: 4000, count: 2 }]);
    // An id nobody announced is still refused.
    assert.deepEqual(agentEvents(log).find(e => e.event === 'result' && e.type === 'elicit')?.result, { action: 'accept', content: {} });
    const ghost = agentEvents(log).find(e => e.event === 'result' && e.sessionId === 'never-announced') as { error?: { code: number } } | undefined;
    assert.equal(ghost?.error?.code, -32602);
    const init = agentEvents(log).find(e => e.event === 'initialize')!;
    assert.ok(init, 'initialized');
    for (const t of sb.review.views()) sb.review.keep(t.turnId);
    fs.rmSync(notes, { force: true });
    fs.rmSync(edited, { force: true });
  });

  it('a child still working when the parent\'s turn ends keeps its request open until answered: never refused by the turn\'s end', async () => {
    const hold = gate('children-late');
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'child', child: 'c-late', title: 'Late', description: 'Outlive the turn', background: true, steps: [
        { type: 'permission', quiet: true, toolCall: { toolCallId: 'late-1', title: 'Run the late job', kind: 'execute' } },
      ] },
      { type: 'waitFile', path: hold.path },
      { type: 'text', text: 'Parent done.' },
    ] }] });
    const sent = sb.chat.sendPrompt('outlive');
    const pending = () => sb.chat.items.find((i): i is Extract<Item, { kind: 'permission' }> => i.kind === 'permission');
    await waitFor('the child\'s permission request', () => pending());
    hold.open();
    await sent;
    await waitFor('the parent\'s turn end', () => sb.chat.items.some(i => i.kind === 'turnEnd') || undefined);
    assert.equal(pending()?.permission.outcome, undefined, `the child's request stays open past the parent's turn: ${dump(sb.chat.items)}`);
    const tab = () => sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)!;
    assert.deepEqual([tab().state, tab().waitingIn], ['waiting', 'Late']);
    sb.chat.answerPermission(pending()!.id, 'allow');
    const answer = await waitFor('the child\'s answer in the agent log', () => agentEvents(log).find(e => e.event === 'result' && e.sessionId === 'c-late'));
    assert.deepEqual(answer.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
    await waitFor('the child\'s card idle', () => card(sb.chat.items, 'c-late')?.state === 'idle' || undefined);
  });

  it('Stop on the parent cancels every running child that offers cancel; their calls and cards end stopped', async () => {
    const hold = gate('children-stop');
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'parallel', branches: [
        [{ type: 'child', child: 'c-a', title: 'A', steps: [{ type: 'toolCall', toolCall: { toolCallId: 'x', title: 'Long job', kind: 'execute', status: 'in_progress' } }, { type: 'waitFile', path: hold.path }] }],
        [{ type: 'child', child: 'c-b', title: 'B', steps: [{ type: 'waitFile', path: hold.path }] }],
      ] },
    ] }] });
    const sent = sb.chat.sendPrompt('work');
    await waitFor('two running children', () => ['c-a', 'c-b'].every(id => card(sb.chat.items, id)?.state === 'running') || undefined);
    // A's job is its own update, after A started.
    await waitFor('A\'s job in the chat', () => sb.chat.items.some(i => i.kind === 'tool' && i.inChild === 'c-a') || undefined);
    assert.equal(sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)?.state, 'busy', 'the parent is not done while its children run');
    sb.view.childTabs.show(sb.chat.activeTab, 'c-a');
    assert.deepEqual(sb.view.childTabs.tabs.map(t => t.items.map(i => i.kind === 'tool' ? i.tool.title : i.kind)), [['Long job']], 'A\'s tab shows its running job');
    await sb.chat.cancelTurn();
    await sent;
    // The three cancels go out together; the agent may log the children's after its turn answered.
    const cancels = () => agentEvents(log).filter(e => e.event === 'cancel').map(e => (e.params as { sessionId: string }).sessionId).sort().join(' ');
    await waitFor(() => `session/cancel for the parent and both children, saw: ${cancels()}`, () => cancels() === 'c-a c-b sess-1' || undefined);
    await waitFor('both cards stopped', () => ['c-a', 'c-b'].every(id => card(sb.chat.items, id)?.stopReason === 'cancelled') || undefined);
    const job = sb.chat.items.find(i => i.kind === 'tool' && i.inChild === 'c-a');
    assert.equal(job?.kind === 'tool' && job.tool.status, 'cancelled');
    await waitFor('the job stopped in A\'s tab too', () => sb.view.childTabs.tabs[0]?.items.some(i => i.kind === 'tool' && i.tool.status === 'cancelled') || undefined);
    hold.open();
    // Closing the conversation closes its helpers' tabs.
    await sb.chat.closeTab(sb.chat.activeTab);
    await waitFor('A\'s tab closed with its conversation', () => sb.view.childTabs.tabs.length === 0 || undefined);
  });
});
