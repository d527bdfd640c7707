import assert from 'node:assert/strict';
import { PendingRequests } from '../../src/common/pendingRequests';

describe('PendingRequests (which conversation a request-scoped question belongs to)', () => {
  it('a pending request that names a session belongs to it until the agent answers', () => {
    const p = new PendingRequests();
    p.outgoing({ id: 3, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } });
    p.outgoing({ id: 4, method: 'session/prompt', params: { sessionId: 's2', prompt: [] } });
    assert.deepEqual([p.sessionOf(3), p.sessionOf(4)], ['s1', 's2']);
    p.incoming({ id: 3, method: 'session/request_permission', params: { sessionId: 's1' } }); // a request of the agent's, not an answer
    assert.equal(p.sessionOf(3), 's1');
    p.incoming({ id: 3 });
    assert.equal(p.sessionOf(3), undefined, 'answered: no longer pending');
    assert.equal(p.sessionOf(4), 's2');
  });
  it('requests that name no session, unknown ids and odd ids belong to no conversation', () => {
    const p = new PendingRequests();
    p.outgoing({ id: 0, method: 'initialize', params: {} });
    p.outgoing({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
    p.outgoing({ method: 'session/cancel', params: { sessionId: 's1' } }); // a notification
    p.outgoing({ id: 2, method: 'session/prompt', params: { sessionId: 42 } });
    for (const id of [0, 1, 2, 'req-0', '1', null, undefined, {}, 99]) assert.equal(p.sessionOf(id), undefined, JSON.stringify(id));
  });
});
