import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { applyMetaUpdate, EMPTY_META, SessionMeta } from '../../src/common/sessionMeta';
import { MAX_PLANS, planFileLabel } from '../../src/common/plans';

const apply = (meta: SessionMeta, ...updates: SessionUpdate[]) => updates.reduce((m, u) => applyMetaUpdate(m, u) ?? m, meta);
const entry = (content: string, status: 'pending' | 'in_progress' | 'completed' = 'pending') => ({ content, priority: 'medium' as const, status });

describe('plans (plan_update / plan_removed)', () => {
  it('keeps several plans apart; an update with the same planId replaces that plan in place', () => {
    const m = apply(EMPTY_META,
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [entry('a'), entry('b')] } },
      { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'doc', content: '# Design\n\n- one' } },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [entry('a', 'completed')] } },
    );
    assert.deepEqual(m.plans, [
      { type: 'items', planId: 'p1', entries: [entry('a', 'completed')] },
      { type: 'markdown', planId: 'doc', content: '# Design\n\n- one' },
    ]);
    assert.deepEqual(m.plan, [], 'the legacy checklist is untouched');
  });

  it('removes the plan named by plan_removed; an unknown id changes nothing', () => {
    const m = apply(EMPTY_META,
      { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'f', uri: 'file:///w/PLAN.md' } },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [entry('x')] } },
      { sessionUpdate: 'plan_removed', planId: 'f' },
    );
    assert.deepEqual(m.plans?.map(p => p.planId), ['p']);
    assert.equal(applyMetaUpdate(m, { sessionUpdate: 'plan_removed', planId: 'nope' }), undefined);
  });

  it('keeps the legacy plan working beside keyed plans', () => {
    const m = apply(EMPTY_META,
      { sessionUpdate: 'plan', entries: [entry('legacy')] },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [entry('new')] } },
    );
    assert.deepEqual(m.plan, [entry('legacy')]);
    assert.equal(m.plans?.length, 1);
  });

  it('keeps a long Markdown plan whole up to the block bound (not cut like a title), and bounds the number of plans', () => {
    const long = 'x'.repeat(20_000);
    const m = apply(EMPTY_META, { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'd', content: long } });
    assert.equal((m.plans?.[0] as { content: string }).content, long);
    const many = apply(EMPTY_META, ...Array.from({ length: MAX_PLANS + 5 }, (_, i): SessionUpdate => ({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: `p${i}`, entries: [] } })));
    assert.equal(many.plans?.length, MAX_PLANS);
    assert.equal(many.plans?.[MAX_PLANS - 1].planId, `p${MAX_PLANS + 4}`);
  });

  it('labels a file plan by its path', () => {
    assert.equal(planFileLabel('file:///w/my%20plan.md'), '/w/my plan.md');
    assert.equal(planFileLabel('https://example.com/p'), 'https://example.com/p');
  });
});
