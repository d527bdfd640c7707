import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { applyMetaUpdate, EMPTY_META, matchCommands, metaFromResponse, SessionMeta } from '../../src/common/sessionMeta';

const apply = (meta: SessionMeta, ...updates: SessionUpdate[]) => updates.reduce((m, u) => applyMetaUpdate(m, u) ?? m, meta);

describe('sessionMeta', () => {
  const withModes = metaFromResponse(EMPTY_META, {
    modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
    configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'm1', options: [{ value: 'm1', name: 'M1' }] }],
  });

  it('takes modes and config options from the session response', () => {
    assert.equal(withModes.modes?.currentModeId, 'ask');
    assert.equal(withModes.configOptions[0].id, 'model');
  });

  it('replaces plan, commands and config options whole; follows the current mode', () => {
    const m = apply(withModes,
      { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }, { content: 'b', priority: 'low', status: 'pending' }] },
      { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'completed' }] },
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search', input: { hint: 'query' } }] },
      { sessionUpdate: 'current_mode_update', currentModeId: 'code' },
      { sessionUpdate: 'config_option_update', configOptions: [] },
    );
    assert.deepEqual(m.plan, [{ content: 'a', priority: 'high', status: 'completed' }]);
    assert.equal(m.commands[0].name, 'web');
    assert.equal(m.modes?.currentModeId, 'code');
    assert.deepEqual(m.configOptions, []);
  });

  it('sets and clears the title; keeps it when the update has no title field', () => {
    const titled = apply(EMPTY_META, { sessionUpdate: 'session_info_update', title: 'Fix the build' });
    assert.equal(titled.title, 'Fix the build');
    assert.equal(applyMetaUpdate(titled, { sessionUpdate: 'session_info_update', updatedAt: '2026-01-01T00:00:00Z' }), undefined);
    assert.equal(apply(titled, { sessionUpdate: 'session_info_update', title: null }).title, undefined);
  });

  it('records usage with cost', () => {
    const m = apply(EMPTY_META, { sessionUpdate: 'usage_update', used: 5000, size: 200000, cost: { amount: 0.12, currency: 'USD' } });
    assert.deepEqual(m.usage, { used: 5000, size: 200000, cost: { amount: 0.12, currency: 'USD' } });
  });

  it('leaves conversation updates to the transcript', () => {
    assert.equal(applyMetaUpdate(EMPTY_META, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }), undefined);
  });

  it('completes slash commands by prefix, only while typing the command name', () => {
    const cmds = [{ name: 'web', description: '' }, { name: 'whoami', description: '' }, { name: 'plan', description: '' }];
    assert.deepEqual(matchCommands(cmds, '/w').map(c => c.name), ['web', 'whoami']);
    assert.deepEqual(matchCommands(cmds, '/').length, 3);
    assert.deepEqual(matchCommands(cmds, '/web query'), []);
    assert.deepEqual(matchCommands(cmds, 'w'), []);
  });
});
