// The chat model in a real VS Code with the scripted agent: every session/update variant as the
// user sees it, permission answers, cancel, several sessions at once, and persistence.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { HOST_MEMORY_BOUND, splitTurns, summarizeTurn } from '../../src/common/turns';
import { ChatSession } from '../../src/session/chatSession';
import { SavedChats } from '../../src/session/savedChats';
import { activeDiffTab, agentEvents, api, dump, lastOf, memoryMemento, quietLogger, useScriptedAgent, waitFor } from './helpers';

const tools = (items: readonly Item[]) => items.filter((i): i is Extract<Item, { kind: 'tool' }> => i.kind === 'tool');

describe('Chat panel model', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  it('upserts a tool call sent twice, applies updates without status, and tolerates updates after the turn', async () => {
    await useScriptedAgent({
      turns: [{ steps: [
        { type: 'toolCall', toolCall: { toolCallId: 't1', title: 'Read', kind: 'read' } },
        { type: 'toolCall', toolCall: { toolCallId: 't1', title: 'Read src/hello.ts', kind: 'read', status: 'in_progress', locations: [{ path: '{{cwd}}/src/hello.ts', line: 3 }] } },
        { type: 'toolCallUpdate', update: { toolCallId: 't1', content: [{ type: 'content', content: { type: 'text', text: 'file contents' } }] } },
        { type: 'toolCallUpdate', update: { toolCallId: 't1', status: 'failed', rawOutput: { error: 'EACCES' } } },
        { type: 'text', text: 'Could not read it.' },
      ] }],
    });
    await sb.chat.sendPrompt('read hello');
    const cards = tools(sb.chat.items);
    assert.equal(cards.length, 1, dump(sb.chat.items));
    const t = cards[0].tool;
    assert.deepEqual([t.title, t.status, t.content, t.locations[0].line], ['Read src/hello.ts', 'failed', [{ type: 'text', text: 'file contents' }], 3]);
    assert.match(t.rawOutput ?? '', /EACCES/);
  });

  it('keeps session state: modes, config options, commands, usage, title and plan', async () => {
    await useScriptedAgent({
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
      configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'small', options: [{ value: 'small', name: 'Small' }, { value: 'large', name: 'Large' }] }],
      turns: [{ steps: [
        { type: 'update', update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search the web', input: { hint: 'query' } }] } },
        { type: 'update', update: { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.03, currency: 'USD' } } },
        { type: 'update', update: { sessionUpdate: 'session_info_update', title: 'Greeting the user' } },
        { type: 'plan', entries: [{ content: 'Say hi', priority: 'high', status: 'in_progress' }] },
        { type: 'plan', entries: [{ content: 'Say hi', priority: 'high', status: 'completed' }, { content: 'Wave', priority: 'low', status: 'pending' }] },
      ] }],
    });
    await sb.chat.sendPrompt('hi');
    const meta = sb.chat.active.meta;
    assert.equal(meta.modes?.currentModeId, 'ask');
    assert.equal(meta.commands[0].input?.hint, 'query');
    assert.deepEqual(meta.usage, { used: 1200, size: 200000, cost: { amount: 0.03, currency: 'USD' } });
    assert.equal(sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)?.title, 'Greeting the user');
    assert.deepEqual(meta.plan.map(e => e.status), ['completed', 'pending']);

    await sb.chat.setMode('code');
    await sb.chat.setConfigOption('model', 'large');
    assert.equal(sb.chat.active.meta.modes?.currentModeId, 'code');
    assert.equal(sb.chat.active.meta.configOptions[0].currentValue, 'large');
  });

  it('commands the agent announces right after session/new, as Claude\'s adapter does, reach the conversation', async () => {
    await useScriptedAgent({
      coalesceWrites: true,
      onNewSession: [{ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'compact', description: 'Compact the conversation' }] }],
      turns: [{ steps: [{ type: 'text', text: 'ok' }] }],
    });
    // Opening the conversation (no prompt yet) must be enough to offer the agent's commands.
    await sb.chat.start();
    await waitFor('the commands announced after session/new', () => sb.chat.active.meta.commands.length > 0).catch(() => undefined);
    assert.deepEqual(sb.chat.active.meta.commands.map(c => c.name), ['compact']);
  });

  it('Stop answers a pending permission request "cancelled" and the turn ends cancelled', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [
        { type: 'toolCall', toolCall: { toolCallId: 'run', title: 'Run tests', kind: 'execute', status: 'in_progress' } },
        { type: 'permission', toolCall: { toolCallId: 'run', title: 'Run tests' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_always' }] },
        { type: 'sleep', ms: 5000 },
      ] }],
    });
    const turn = sb.chat.sendPrompt('test it');
    await waitFor('permission', () => lastOf(sb.chat.items, 'permission'));
    assert.equal(sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)?.state, 'waiting');
    await vscode.commands.executeCommand('switchboard.cancelTurn');
    await turn;
    assert.equal(lastOf(sb.chat.items, 'permission')!.permission.outcome, 'cancelled');
    assert.equal(lastOf(sb.chat.items, 'turnEnd')!.stopReason, 'cancelled');
    assert.equal(tools(sb.chat.items)[0].tool.status, 'cancelled');
    const answer = agentEvents(log).find(e => e.event === 'result' && e.type === 'permission');
    assert.deepEqual(answer?.result, { outcome: { outcome: 'cancelled' } });
  });

  it('runs two conversations side by side, each with its own session and transcript', async () => {
    await useScriptedAgent({ turns: [{ steps: [{ type: 'sleep', ms: 300 }, { type: 'text', text: 'answer to {{sessionId}}' }] }] });
    await sb.chat.start();
    const first = sb.chat.activeTab;
    const firstTurn = sb.chat.sendPrompt('one');
    await sb.chat.newConversation();
    const second = sb.chat.activeTab;
    assert.notEqual(first, second);
    const secondTurn = sb.chat.sendPrompt('two');
    await Promise.all([firstTurn, secondTurn]);
    const [a, b] = [first, second].map(id => sb.chat.sessions.find(s => s.id === id)!);
    assert.notEqual(a.sessionId, b.sessionId);
    assert.equal(lastOf(a.items, 'agent')?.text, `answer to ${a.sessionId}`);
    assert.equal(lastOf(b.items, 'agent')?.text, `answer to ${b.sessionId}`);
    assert.equal(lastOf(a.items, 'user')?.text, 'one');
    sb.chat.selectTab(first);
    assert.equal(lastOf(sb.chat.items, 'user')?.text, 'one');
  });

  it('a new conversation asked for while the first prompt still waits for its agent opens a new tab: the next prompt never joins the first', async () => {
    await useScriptedAgent({ turns: [{ steps: [{ type: 'text', text: 'answer to {{sessionId}}' }] }] });
    // No agent runs: the first prompt waits for the start, its tab has no session and nothing shown yet.
    const first = sb.chat.activeTab;
    const firstTurn = sb.chat.sendPrompt('one');
    await sb.chat.newConversation();
    const second = sb.chat.activeTab;
    assert.notEqual(second, first, 'a new tab');
    assert.equal(await sb.chat.sendPrompt('two'), 'sent');
    await firstTurn;
    const users = (id: string) => sb.chat.sessions.find(s => s.id === id)!.items.filter(i => i.kind === 'user').map(i => i.kind === 'user' && i.text);
    assert.deepEqual({ first: users(first), second: users(second) }, { first: ['one'], second: ['two'] });
  });

  it('a second Enter while the agent is still starting opens no second session: it is queued and sent after the first', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [{ type: 'text', text: 'one answer' }] }] });
    const first = sb.chat.sendPrompt('first');
    assert.equal(await sb.chat.sendPrompt('second'), 'queued');
    await first;
    await waitFor('the second prompt answered', () => sb.chat.items.filter(i => i.kind === 'turnEnd').length === 2 && !sb.chat.active.busy);
    assert.equal(agentEvents(log).filter(e => e.event === 'session/new').length, 1);
    assert.deepEqual(sb.chat.items.filter(i => i.kind === 'user').map(i => i.kind === 'user' && i.text), ['first', 'second']);
  });

  it('"open diff" on a tool card shows both full texts in the diff editor', async () => {
    const oldText = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const newText = oldText.replace('line 150', 'line one-fifty');
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'toolCall', toolCall: { toolCallId: 'e', title: 'Edit', kind: 'edit', content: [{ type: 'diff', path: '{{cwd}}/big.txt', oldText, newText }] } },
    ] }] });
    await sb.chat.sendPrompt('edit');
    const card = tools(sb.chat.items)[0];
    await sb.view['diffs'].open(sb.chat.activeTab, card.id, 0);
    const input = await activeDiffTab();
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), oldText);
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), newText);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('refuses content the agent does not accept, with a message, and sends nothing', async () => {
    const { log } = await useScriptedAgent({ agentCapabilities: { promptCapabilities: { image: false } } });
    await sb.chat.start();
    assert.equal(await sb.chat.sendPrompt('look', [], [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]), 'notSent', 'the view gets the prompt back');
    assert.match(lastOf(sb.chat.items, 'notice')?.text ?? '', /does not accept images/);
    assert.equal(agentEvents(log).filter(e => e.event === 'prompt').length, 0);
  });

  it('sends @-mentioned files as links, or embedded when the agent accepts embedded context', async () => {
    const { log } = await useScriptedAgent({ agentCapabilities: { promptCapabilities: { embeddedContext: true } } });
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'notes.txt'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit(e => e.insert(new vscode.Position(0, 0), 'UNSAVED '));
    try {
      await sb.chat.sendPrompt('summarize @notes.txt', ['notes.txt']);
      const prompt = agentEvents(log).find(e => e.event === 'prompt')!.params as { prompt: Array<Record<string, any>> };
      assert.equal(prompt.prompt[0].text, 'summarize @notes.txt');
      assert.equal(prompt.prompt[1].type, 'resource');
      assert.ok(prompt.prompt[1].resource.text.startsWith('UNSAVED '), 'the open buffer, unsaved edits included');
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it("lists the agent's sessions and opens one with session/load, its history replayed into a new tab", async () => {
    const cwd = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const { log } = await useScriptedAgent({
      agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } },
      sessions: [{ sessionId: 'old-1', cwd, title: 'Yesterday: fix the build', updatedAt: '2026-11-21T10:00:00Z' }],
      history: [
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix the build' } },
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Fixed: a missing import.' } },
      ],
      turns: [{ steps: [{ type: 'text', text: 'continuing {{sessionId}}' }] }],
    });
    await sb.chat.start();
    const before = sb.chat.activeTab;
    const browsing = sb.chat.browseSessions();
    await waitFor('session/list', () => agentEvents(log).some(e => e.event === 'session/list'));
    // The picker shows when the list arrived (seconds on a loaded machine): accept it once it is there.
    for (const end = Date.now() + 30_000; Date.now() < end && !agentEvents(log).some(e => e.event === 'session/load');) {
      await new Promise(r => setTimeout(r, 100));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    await browsing;
    assert.notEqual(sb.chat.activeTab, before);
    assert.equal(sb.chat.sessionId, 'old-1');
    assert.deepEqual(sb.chat.items.map(i => [i.kind, 'text' in i ? i.text : '']), [['user', 'Fix the build'], ['agent', 'Fixed: a missing import.']]);
    assert.equal(sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)?.title, 'Yesterday: fix the build');
    await sb.chat.sendPrompt('go on');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'continuing old-1');
  });

  it('drops update variants it does not know (unstable ones included) and keeps streaming', async () => {
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'text', text: 'before ' },
      { type: 'update', update: { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '# x' } } },
      { type: 'update', update: { sessionUpdate: 'subagent_update', sessionId: 'sub' } },
      { type: 'update', update: { sessionUpdate: 'some_future_update', severity: 'info', title: 'FYI' } },
      { type: 'text', text: 'after' },
    ] }] });
    await sb.chat.sendPrompt('go');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'before after', dump(sb.chat.items));
    assert.equal(lastOf(sb.chat.items, 'turnEnd')?.stopReason, 'end_turn');
  });

  it('restores saved conversations as tabs after a reload, without live permission prompts', async () => {
    const saved = new SavedChats(memoryMemento(), fs.mkdtempSync(path.join(os.tmpdir(), 'sb-saved-')));
    const session = new ChatSession('tab7', 'Scripted', quietLogger, 'sess-9',
      { items: [{ kind: 'user', id: 'i1', text: 'hello' }, { kind: 'permission', id: 'i2', permission: { requestId: 'x', title: 'Run?', options: [] } }] });
    saved.flush([session]);
    const [restored] = saved.load();
    assert.deepEqual([restored.id, restored.agentName, restored.sessionId], ['tab7', 'Scripted', 'sess-9']);
    assert.equal(restored.items.length, 2);
    const permission = restored.items[1] as Extract<Item, { kind: 'permission' }>;
    assert.equal(permission.permission.outcome, 'cancelled');
    session.dispose();
  });

  it('restores every item of a long live turn (thousands of items) after a reload', async () => {
    const saved = new SavedChats(memoryMemento(), fs.mkdtempSync(path.join(os.tmpdir(), 'sb-saved-')));
    const items: Item[] = [{ kind: 'user', id: 'u', text: 'run every step' }];
    for (let n = 0; n < 2000; n++) items.push({ kind: 'agent', id: `a${n}`, text: `step ${n}: looking at file${n % 50}` });
    const session = new ChatSession('tab9', 'Scripted', quietLogger, 'sess-10', { items });
    saved.flush([session]);
    const [restored] = saved.load();
    assert.equal(restored.items.length, items.length, 'no item of the turn is lost');
    assert.deepEqual([restored.items[0].id, restored.items[1].id], ['u', 'a0']);
    session.dispose();
  });

  it('keeps the last turns of a long conversation in memory and the older ones on disk, read back on demand', async () => {
    await useScriptedAgent({ turns: [] }); // every prompt is echoed
    for (let n = 1; n <= HOST_MEMORY_BOUND.maxTurns + 4; n++) await sb.chat.sendPrompt(`prompt ${n}`);
    const tab = sb.chat.active;
    const inMemory = splitTurns(tab.items);
    assert.ok(inMemory.length <= HOST_MEMORY_BOUND.maxTurns, `${inMemory.length} turns in memory`);
    assert.equal(tab.archived.length + inMemory.length, HOST_MEMORY_BOUND.maxTurns + 4);
    assert.equal(tab.archived[0].prompt, 'prompt 1');
    assert.equal(tab.info.title, 'prompt 1', 'the tab keeps its first prompt as title');
    // The first turn comes back from disk, as it was.
    const first = await tab.turnItems(tab.archived[0].id);
    assert.deepEqual(first.map(i => [i.kind, 'text' in i ? i.text : '']), [['user', 'prompt 1'], ['agent', 'echo: prompt 1'], ['turnEnd', '']]);
    assert.deepEqual(await tab.turnItems('no-such-turn'), []);
  });

  it('writes old turns to a file of their own, saves their summaries, and forgets the file with its tab', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-archive-'));
    const saved = new SavedChats(memoryMemento(), dir, quietLogger);
    const session = new ChatSession('tab8', 'Scripted', quietLogger, undefined, { items: [{ kind: 'user', id: 'i9', text: 'latest' }] });
    session.archive = saved.archive;
    const key = saved.archive.newKey();
    const turn: Item[] = [{ kind: 'user', id: 'i1', text: 'old' }, { kind: 'agent', id: 'i2', text: 'answer' }];
    saved.archive.write(key, [turn]);
    assert.deepEqual(await saved.archive.read(key, 'i1'), turn);
    assert.equal(await saved.archive.read(key, 'i2'), undefined, 'turns are found by their first item');
    assert.equal(await saved.archive.read('../escape', 'i1'), undefined, 'only names it made');
    const restored = new ChatSession('tab8', 'Scripted', quietLogger, undefined, { items: session.items, archived: [summarizeTurn(turn)], archiveKey: key });
    restored.archive = saved.archive;
    saved.flush([restored]);
    const [chat] = saved.load();
    assert.deepEqual([chat.archiveKey, chat.archived?.[0].prompt], [key, 'old']);
    assert.deepEqual((await restored.turnItems('i1')).map(i => i.id), ['i1', 'i2']);
    saved.archive.forget(key);
    await saved.archive.read(key, 'i1'); // waits for the removal
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.endsWith('.jsonl')), [], "the old turns' file is gone");
    session.dispose();
    restored.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
