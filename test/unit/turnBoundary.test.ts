import assert from 'node:assert/strict';
import { TurnBoundaries } from '../../src/common/turnBoundary';

const update = (sessionId: string) => ({ method: 'session/update', params: { sessionId, update: {} } });
const prompt = (id: number, sessionId: string) => ({ id, method: 'session/prompt', params: { sessionId, prompt: [] } });

describe('TurnBoundaries (late updates by wire order)', () => {
  it('an update read after the prompt response is late even when dispatched before the turn ends', () => {
    const t = new TurnBoundaries();
    t.outgoing(prompt(1, 's'));
    t.incoming(update('s'));
    t.incoming(update('s'));
    t.incoming({ id: 1 });          // the response: the turn ended on the wire
    t.incoming(update('s'));        // sent after it, read in the same chunk
    assert.deepEqual([t.dispatch('s'), t.dispatch('s'), t.dispatch('s')], [false, false, true]);
  });

  it('nothing is late while a prompt runs, and a new prompt opens a new turn', () => {
    const t = new TurnBoundaries();
    t.outgoing(prompt(1, 's'));
    t.incoming(update('s'));
    assert.equal(t.dispatch('s'), false);
    t.incoming({ id: 1 });
    t.incoming(update('s'));
    assert.equal(t.dispatch('s'), true);
    t.outgoing(prompt(2, 's'));
    t.incoming(update('s'));
    assert.equal(t.dispatch('s'), false);
  });

  it('sessions are counted apart; responses to other requests change nothing', () => {
    const t = new TurnBoundaries();
    t.outgoing(prompt(1, 'a'));
    t.outgoing(prompt(2, 'b'));
    t.incoming(update('b'));
    t.incoming({ id: 1 });
    t.incoming({ id: 7 });
    t.incoming(update('a'));
    assert.equal(t.dispatch('b'), false, 'b still runs');
    assert.equal(t.dispatch('a'), true, 'a answered before this update');
  });
});
