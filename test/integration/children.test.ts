// Child-agent sessions and plan operations (ACP, stabilized 2026-11-20), as the user sees them: plans
// kept by id beside the legacy checklist; an agent's helpers (child sessions) as cards in the parent's
// conversation, their requests answered there, Stop reaching them, and unknown session ids refused.
import assert from 'node:assert/strict';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, dump, useScriptedAgent } from './helpers';

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
});
