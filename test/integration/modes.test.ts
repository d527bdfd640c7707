// Review before the write, by default (issue 24 point 2): a new conversation starts in the agent's
// mode that asks before editing unless the user chose otherwise; the user's choice is remembered per
// agent. The scripted agent answers session/new as today's adapters do: Claude sends its modes twice
// (legacy `modes` and a `mode` config option), Codex's shape is tried here with legacy modes only.
// realAdapters.test.ts proves the same with the adapters themselves.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, useScriptedAgent, waitFor } from './helpers';

const CLAUDE_MODES = [
  { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Automatically accept all file edits' },
  { id: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
  { id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Accepts all permissions' },
];
const CODEX_MODES = [
  { id: 'read-only', name: 'Read-only', description: 'Requires approval to edit files and access the internet.' },
  { id: 'workspace-write', name: 'Workspace access', description: 'Edit workspace files; ask before writing outside the workspace or accessing the network.' },
  { id: 'agent', name: 'Auto review', description: 'Only ask for actions detected as potentially unsafe' },
];
const claudeShape = (current: string) => ({
  modes: { currentModeId: current, availableModes: CLAUDE_MODES },
  configOptions: [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: current, options: CLAUDE_MODES.map(m => ({ value: m.id, name: m.name, description: m.description })) },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'default', options: [{ value: 'default', name: 'Default' }] },
  ],
});
const codexShape = (current: string) => ({ modes: { currentModeId: current, availableModes: CODEX_MODES } });

describe('Modes: a new conversation asks before editing', () => {
  let sb: SwitchboardApi;
  const config = () => vscode.workspace.getConfiguration('switchboard');

  before(async () => { sb = await api(); });
  beforeEach(async () => {
    await sb.chat.stop();
    await config().update('startInAskingMode', undefined, vscode.ConfigurationTarget.Global);
    await sb.chat.newConversation();
  });
  after(async () => {
    await sb.chat.stop();
    await config().update('startInAskingMode', undefined, vscode.ConfigurationTarget.Global);
  });

  const modeOption = () => sb.chat.active.meta.configOptions.find(o => o.id === 'mode');
  const modeRequests = (log: string) => agentEvents(log)
    .filter(e => e.event === 'session/set_mode' || e.event === 'session/set_config_option')
    .map(e => { const p = e.params as Record<string, unknown>; return e.event === 'session/set_mode' ? `set_mode ${p.modeId}` : `set_config_option ${p.configId}=${p.value}`; });

  it("Claude's shape (mode config option and legacy modes), starting in auto: switched to Manual through the config option", async () => {
    const { log } = await useScriptedAgent({ ...claudeShape('auto'), turns: [{ steps: [{ type: 'text', text: 'hi' }] }] }, 'Claude-like');
    await sb.chat.sendPrompt('hi');
    assert.deepEqual(modeRequests(log), ['set_config_option mode=default'], 'the config option, which supersedes the legacy modes');
    assert.equal(modeOption()?.currentValue, 'default');
  });

  it("Codex's shape with legacy modes only, starting in Auto review: switched to Read-only with session/set_mode", async () => {
    const { log } = await useScriptedAgent({ ...codexShape('agent'), turns: [{ steps: [{ type: 'text', text: 'hi' }] }] }, 'Codex-like');
    await sb.chat.sendPrompt('hi');
    assert.deepEqual(modeRequests(log), ['set_mode read-only']);
    assert.equal(sb.chat.active.meta.modes?.currentModeId, 'read-only');
  });

  it('with switchboard.startInAskingMode off, the agent keeps its own mode', async () => {
    await config().update('startInAskingMode', false, vscode.ConfigurationTarget.Global);
    const { log } = await useScriptedAgent({ ...claudeShape('auto'), turns: [{ steps: [{ type: 'text', text: 'hi' }] }] }, 'Claude-like');
    await sb.chat.sendPrompt('hi');
    assert.deepEqual(modeRequests(log), []);
    assert.equal(modeOption()?.currentValue, 'auto');
  });

  it("a mode the user picks is remembered for that agent: the next new conversation starts in it", async () => {
    const { log } = await useScriptedAgent({ ...claudeShape('auto'), turns: [{ steps: [{ type: 'text', text: 'hi' }] }, { steps: [{ type: 'text', text: 'again' }] }] }, 'Claude-remembers');
    await sb.chat.sendPrompt('hi');
    await sb.chat.setConfigOption('mode', 'acceptEdits');
    assert.equal(modeOption()?.currentValue, 'acceptEdits');
    await sb.chat.newConversation();
    await sb.chat.sendPrompt('again');
    await waitFor('the second session', () => agentEvents(log).filter(e => e.event === 'session/new').length === 2);
    assert.deepEqual(modeRequests(log), ['set_config_option mode=default', 'set_config_option mode=acceptEdits', 'set_config_option mode=acceptEdits'],
      'first the asking mode, then the user\'s pick, then the pick again in the new conversation');
    assert.equal(modeOption()?.currentValue, 'acceptEdits');
    // Another agent is not affected by this agent's choice.
    const other = await useScriptedAgent({ ...claudeShape('auto'), turns: [{ steps: [{ type: 'text', text: 'hi' }] }] }, 'Claude-other');
    await sb.chat.stop();
    await sb.chat.newConversation();
    await sb.chat.sendPrompt('hi');
    assert.deepEqual(modeRequests(other.log), ['set_config_option mode=default']);
  });
});
