// What today's adapters add beside the protocol's methods, seen as the user sees it: commands the
// agent runs itself (`_meta.terminal_*` on its tool calls) in a card with a live, bounded, coloured
// tail and a read-only terminal; `notice` updates with their severity; context compaction as one
// entry; and the protocol version (always v1, a v2 answer refused).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { agentEvents, api, dump, isAlive, lastOf, useScriptedAgent, waitFor } from './helpers';

type ToolItem = Extract<Item, { kind: 'tool' }>;

describe('Agent meta: agent-run commands, notices, compaction, protocol version', () => {
  let sb: SwitchboardApi;
  const keyOf = (item: ToolItem) => `${sb.chat.activeTab}/${item.tool.agentTerminal!.key}`;
  const tool = () => lastOf(sb.chat.items, 'tool')!;

  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  it('advertises notices, compaction and the terminal-output _meta keys it serves', async () => {
    const { log } = await useScriptedAgent({});
    await sb.chat.sendPrompt('hi');
    const init = agentEvents(log).find(e => e.event === 'initialize')!.params as Record<string, any>;
    assert.equal(init.protocolVersion, 1);
    assert.deepEqual(init.clientCapabilities.session.notices, {});
    assert.deepEqual(init.clientCapabilities.session.compaction, {});
    assert.equal(init.clientCapabilities._meta.terminal_output, true);
    assert.equal(init.clientCapabilities._meta.terminal_output_delta, true);
  });

  it('shows an agent-run command with its command line, live coloured tail and exit, and a read-only "Show in terminal"', async () => {
    await useScriptedAgent({ turns: [{ steps: [{
      type: 'agentCommand', command: 'npm test', chunks: ['\x1b[32mPASS\x1b[0m unit\n', 'progress 10%\rprogress 100%\n', '\x1b[31mFAIL\x1b[0m e2e\n'], exitCode: 1,
    }] }] });
    await sb.chat.sendPrompt('run the tests');
    const item = tool();
    const view = item.tool.agentTerminal;
    assert.ok(view, dump(sb.chat.items));
    assert.equal(view.command, 'npm test');
    assert.deepEqual(view.exit, { exitCode: 1, signal: null });
    assert.equal(item.tool.status, 'failed');
    // The agent's terminal id is not a client terminal: no second, empty terminal in the card.
    assert.deepEqual(item.tool.content.filter(c => c.type === 'terminal'), []);
    const key = keyOf(item);
    assert.equal(sb.agentTerminals.getTail(key, 4096, { plain: true, colors: true }), '\x1b[32mPASS\x1b[0m unit\nprogress 100%\n\x1b[31mFAIL\x1b[0m e2e\n');
    assert.equal(sb.agentTerminals.getInfo(key)?.running, false);

    assert.ok(sb.agentTerminals.reveal(key));
    const shown = await waitFor('read-only terminal output', () => {
      const t = sb.agentTerminals.terminalOf(key);
      return t && /FAIL/.test(t.screen) && /exited with code 1/.test(t.screen) ? t : undefined;
    });
    assert.match(shown.terminal.name, /Scripted: npm test/);
    assert.match(shown.screen, /Scripted ran this command itself: npm test \(read-only\)/);
    assert.match(shown.screen, /\x1b\[32mPASS/, 'colours reach the terminal');
    const before = shown.screen;
    shown.terminal.sendText('rm -rf /', true);
    await new Promise(r => setTimeout(r, 300));
    assert.equal(sb.agentTerminals.terminalOf(key)?.screen, before, 'typing does nothing');
    shown.terminal.dispose();
  });

  it('keeps a 10 MB agent-run output stream bounded: the host keeps a tail, the transcript none of it', async () => {
    await useScriptedAgent({ turns: [{ steps: [{ type: 'agentCommand', command: 'yes | head', bytes: 10_000_000, chunkBytes: 65_536 }] }] });
    const t0 = Date.now();
    await sb.chat.sendPrompt('flood');
    const ms = Date.now() - t0;
    const item = tool();
    const info = sb.agentTerminals.getInfo(keyOf(item))!;
    assert.ok(info.bytes >= 10_000_000, `saw ${info.bytes} bytes`);
    assert.ok(info.capacity <= 64 * 1024 && info.keptBytes <= 64 * 1024, `kept ${info.keptBytes} bytes in ${info.capacity}`);
    assert.ok(info.truncated);
    const tail = sb.agentTerminals.getTail(keyOf(item), 4096, { plain: true })!;
    assert.ok(Buffer.byteLength(tail) <= 4096);
    assert.match(tail, /done after \d+ lines\n$/);
    assert.ok(JSON.stringify(sb.chat.items).length < 20_000, 'no output in the transcript');
    console.log(`      10 MB of agent-run output in ${ms} ms`);
  });

  it('a Claude-style call (title "Terminal", then the command) shows the command', async () => {
    await useScriptedAgent({ turns: [{ steps: [{ type: 'agentCommand', style: 'claude', command: 'ls -la', output: 'a.ts\nb.ts' }] }] });
    await sb.chat.sendPrompt('list');
    const item = tool();
    assert.equal(item.tool.agentTerminal?.command, 'ls -la', dump(sb.chat.items));
    assert.equal(sb.agentTerminals.getTail(keyOf(item), 4096, { plain: true }), 'a.ts\nb.ts');
    assert.equal(item.tool.status, 'completed');
  });

  it('shows notices of each severity, an unknown one as info', async () => {
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'notice', severity: 'info', title: 'Using model X' },
      { type: 'notice', severity: 'warning', title: 'Rate limit at 80%', description: 'Resets at 5 pm' },
      { type: 'notice', severity: 'error', title: 'MCP server "db" failed to start' },
      { type: 'notice', severity: 'shouting', title: 'Something new' },
    ] }] });
    await sb.chat.sendPrompt('go');
    const notices = sb.chat.items.filter(i => i.kind === 'notice' && i.severity);
    assert.deepEqual(notices.map(n => n.kind === 'notice' && [n.severity, n.text, n.details]), [
      ['info', 'Using model X', undefined], ['warning', 'Rate limit at 80%', 'Resets at 5 pm'],
      ['error', 'MCP server "db" failed to start', undefined], ['info', 'Something new', undefined],
    ], dump(sb.chat.items));
  });

  it('shows a compaction as one entry with its summary, and a failed one with its error', async () => {
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'text', text: 'Working.' },
      { type: 'compaction', compactionId: 'c1', chunks: ['The user wants ', 'tests fixed.'] },
      { type: 'compaction', compactionId: 'c2', status: 'failed', error: 'context too small' },
    ] }] });
    await sb.chat.sendPrompt('go');
    const entries = sb.chat.items.filter(i => i.kind === 'compaction');
    assert.deepEqual(entries.map(e => e.kind === 'compaction' && [e.status, e.summary, e.error]), [
      ['completed', 'The user wants tests fixed.', undefined], ['failed', '', 'context too small'],
    ], dump(sb.chat.items));
  });

  it('asks an agent that serves v1 and the v2 draft for v1, and works with it', async () => {
    const { log } = await useScriptedAgent({ protocolVersions: [1, 2], turns: [{ steps: [{ type: 'text', text: 'v1 it is' }] }] });
    await sb.chat.sendPrompt('hi');
    assert.equal(agentEvents(log).find(e => e.event === 'initialize')!.params!['protocolVersion' as never], 1);
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'v1 it is', dump(sb.chat.items));
  });

  it('refuses an agent that answers with the v2 draft, saying why, and the process is gone', async () => {
    const { log } = await useScriptedAgent({ protocolVersion: 2 });
    assert.equal(await sb.chat.start(), false);
    const err = lastOf(sb.chat.items, 'error')!;
    assert.match(err.message, /ACP protocol version 2, a draft that has no file or terminal methods; Switchboard asked for version 1 and speaks only ACP v1/);
    const pid = agentEvents(log).find(e => e.event === 'start')!.pid as number;
    assert.equal(isAlive(pid), false);
    void vscode;
  });
});
