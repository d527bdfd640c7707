import assert from 'node:assert/strict';
import type { SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk/unstable';
import { modeBehaviour, modeControl, startMode, writesWithoutAsking } from '../../src/common/agentModes';
import { isPrimaryOption } from '../../src/common/permissionOptions';

// As the current adapters send them in session/new (Claude adapter 0.101, Codex adapter 2.6).
const CLAUDE: SessionMode[] = [
  { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Automatically accept all file edits' },
  { id: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
  { id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Accepts all permissions' },
];
const CODEX: SessionMode[] = [
  { id: 'read-only', name: 'Read-only', description: 'Requires approval to edit files and access the internet.' },
  { id: 'workspace-write', name: 'Workspace access', description: 'Edit workspace files; ask before writing outside the workspace or accessing the network.' },
  { id: 'agent', name: 'Auto review', description: 'Only ask for actions detected as potentially unsafe' },
  { id: 'agent-full-access', name: 'Full access', description: 'Unrestricted access to the internet and any file on your computer' },
];
const asOption = (modes: SessionMode[], current: string): SessionConfigOption => ({
  id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: current,
  options: modes.map(m => ({ value: m.id, name: m.name, description: m.description })),
});
const MODEL: SessionConfigOption = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm', options: [{ value: 'm', name: 'M' }] };

describe('agentModes', () => {
  it("knows which of today's Claude and Codex modes ask before editing", () => {
    assert.deepEqual(CLAUDE.map(modeBehaviour), ['asks', 'writes', 'plans', 'writes', 'writes']);
    assert.deepEqual(CODEX.map(modeBehaviour), ['asks', 'writes', 'writes', 'writes']);
  });

  it('reads the description of a mode it does not know; a description that says it writes wins over the id', () => {
    assert.equal(modeBehaviour({ id: 'careful', name: 'Careful', description: 'Asks for permission before every edit' }), 'asks');
    assert.equal(modeBehaviour({ id: 'fast', name: 'Fast', description: 'Edits files without asking' }), 'writes');
    assert.equal(modeBehaviour({ id: 'default', name: 'Default', description: 'Automatically approve all tool calls' }), 'writes');
    assert.equal(modeBehaviour({ id: 'think', name: 'Think', description: 'Create a plan first, no edits' }), 'plans');
    assert.equal(modeBehaviour({ id: 'code', name: 'Code' }), 'unknown');
    // Inherited object keys are not modes.
    assert.equal(modeBehaviour({ id: 'constructor', name: 'X' }), 'unknown');
    assert.equal(writesWithoutAsking({ id: 'auto', name: 'Auto' }), true);
  });

  it('shows the mode once: the `mode` config option supersedes the legacy modes', () => {
    const both = modeControl({ modes: { currentModeId: 'auto', availableModes: CLAUDE }, configOptions: [MODEL, asOption(CLAUDE, 'auto')] });
    assert.equal(both?.via, 'config');
    assert.equal(both?.configId, 'mode');
    assert.equal(both?.current, 'auto');
    assert.deepEqual(both?.modes.map(m => m.id), CLAUDE.map(m => m.id));
    const legacy = modeControl({ modes: { currentModeId: 'agent', availableModes: CODEX }, configOptions: [MODEL] });
    assert.equal(legacy?.via, 'modes');
    assert.equal(legacy?.current, 'agent');
    assert.equal(modeControl({ configOptions: [MODEL] }), undefined);
    // A grouped select is flattened.
    const grouped: SessionConfigOption = { id: 'm', name: 'Mode', category: 'mode', type: 'select', currentValue: 'b', options: [{ group: 'g', name: 'G', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }] };
    assert.deepEqual(modeControl({ configOptions: [grouped] })?.modes.map(m => m.id), ['a', 'b']);
  });

  it('a new conversation starts in the asking mode when the agent starts in one that writes without asking', () => {
    const claude = modeControl({ configOptions: [asOption(CLAUDE, 'auto')] })!;
    const codex = modeControl({ modes: { currentModeId: 'agent', availableModes: CODEX }, configOptions: [] })!;
    assert.equal(startMode(claude, undefined, true), 'default', "Claude: Manual, never Plan");
    assert.equal(startMode(codex, undefined, true), 'read-only');
    assert.equal(startMode(claude, undefined, false), undefined, 'the setting is off: the agent\'s own mode stays');
    const alreadyAsking = modeControl({ configOptions: [asOption(CLAUDE, 'default')] })!;
    assert.equal(startMode(alreadyAsking, undefined, true), undefined);
    const noAskingMode = modeControl({ modes: { currentModeId: 'yolo', availableModes: [{ id: 'yolo', name: 'YOLO' }, { id: 'plan', name: 'Plan' }] }, configOptions: [] })!;
    assert.equal(startMode(noAskingMode, undefined, true), undefined, 'no asking mode to go to (planning is not one)');
  });

  it("the user's remembered choice for the agent wins, when the agent still offers it", () => {
    const claude = modeControl({ configOptions: [asOption(CLAUDE, 'auto')] })!;
    assert.equal(startMode(claude, 'acceptEdits', true), 'acceptEdits');
    assert.equal(startMode(claude, 'auto', true), undefined, 'already in it');
    assert.equal(startMode(claude, 'gone', true), 'default', 'a mode the agent no longer offers is ignored');
  });

  it('only a one-time allow is the primary button: an allow that grants for good is not', () => {
    assert.deepEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always', 'other'].map(isPrimaryOption), [true, false, false, false, false]);
  });
});
