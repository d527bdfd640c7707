import assert from 'node:assert/strict';
import { followTarget, FollowTracker } from '../../src/common/follow/followTarget';

describe('follow the agent: which location to show', () => {
  const cases: [string, object, object | undefined][] = [
    ['a location with a line', { sessionUpdate: 'tool_call', locations: [{ path: '/w/a.ts', line: 12 }] }, { path: '/w/a.ts', line: 12 }],
    ['a location without a line', { sessionUpdate: 'tool_call_update', locations: [{ path: '/w/a.ts' }] }, { path: '/w/a.ts' }],
    ['line 0 or junk is the start', { sessionUpdate: 'tool_call', locations: [{ path: '/w/a.ts', line: 0 }] }, { path: '/w/a.ts' }],
    ['a relative path is skipped for the next', { sessionUpdate: 'tool_call', locations: [{ path: 'a.ts', line: 2 }, { path: '/w/b.ts', line: 3 }] }, { path: '/w/b.ts', line: 3 }],
    ['a Windows path', { sessionUpdate: 'tool_call', locations: [{ path: 'C:\\w\\a.ts', line: 1 }] }, { path: 'C:\\w\\a.ts', line: 1 }],
    ['the file of a diff when there is no location', { sessionUpdate: 'tool_call', content: [{ type: 'content' }, { type: 'diff', path: '/w/c.ts', newText: 'x' }] }, { path: '/w/c.ts' }],
    ['locations before diffs', { sessionUpdate: 'tool_call', locations: [{ path: '/w/a.ts', line: 4 }], content: [{ type: 'diff', path: '/w/c.ts' }] }, { path: '/w/a.ts', line: 4 }],
    ['nothing to show', { sessionUpdate: 'tool_call', title: 'Think' }, undefined],
    ['not a tool call', { sessionUpdate: 'agent_message_chunk', locations: [{ path: '/w/a.ts' }] }, undefined],
    ['junk from the agent', { sessionUpdate: 'tool_call', locations: 'x', content: [null, 3] }, undefined],
    ['junk entries', { sessionUpdate: 'tool_call', locations: [null, { path: 5 }, { path: '/w/d.ts', line: 2.5 }] }, { path: '/w/d.ts' }],
  ];
  for (const [name, update, expected] of cases) {
    it(name, () => assert.deepEqual(followTarget(update as never), expected));
  }

  it('shows a new place each time, not the same one again; reset shows it anew', () => {
    const tracker = new FollowTracker();
    const at = (line: number) => ({ sessionUpdate: 'tool_call_update', locations: [{ path: '/w/a.ts', line }] });
    assert.deepEqual(tracker.next(at(1)), { path: '/w/a.ts', line: 1 });
    assert.equal(tracker.next(at(1)), undefined);
    assert.equal(tracker.next({ sessionUpdate: 'tool_call_update', status: 'completed' } as never), undefined);
    assert.deepEqual(tracker.next(at(2)), { path: '/w/a.ts', line: 2 });
    tracker.reset();
    assert.deepEqual(tracker.next(at(2)), { path: '/w/a.ts', line: 2 });
  });
});
