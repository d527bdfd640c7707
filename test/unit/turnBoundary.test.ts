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

  it('a request read after the prompt response is after the answer, asked once; one read before it is not', () => {
    const t = new TurnBoundaries();
    const read = (id: number, sessionId: string) => ({ id, method: 'fs/read_text_file', params: { sessionId, path: '/a' } });
    t.outgoing(prompt(1, 's'));
    t.incoming(read(10, 's'));      // during the turn
    t.incoming({ id: 1 });          // the answer
    t.incoming(read(11, 's'));      // sent after it, read in the same chunk
    t.incoming(read(12, 'other'));  // another session never prompted: the session decides (not in a turn)
    t.incoming({ id: 14, method: 'session/request_permission', params: { sessionId: 's' } }); // not gated: never marked
    assert.deepEqual([t.requestAfterAnswer(10), t.requestAfterAnswer(11), t.requestAfterAnswer(11), t.requestAfterAnswer(12)],
      [false, true, false, false]);
    assert.equal(t.requestAfterAnswer(14), false, 'only fs/* and terminal/create are marked (an id reused later is not taken for late)');
    t.outgoing(prompt(2, 's'));
    t.incoming(read(13, 's'));
    assert.equal(t.requestAfterAnswer(13), false, 'a new prompt opens a new turn');
  });

  it('forgets the oldest marks of requests no handler asked about', () => {
    const t = new TurnBoundaries();
    t.outgoing(prompt(1, 's'));
    t.incoming({ id: 1 });
    for (let id = 100; id < 100 + 1001; id++) t.incoming({ id, method: 'terminal/create', params: { sessionId: 's' } });
    assert.equal(t.requestAfterAnswer(100), false, 'the oldest was dropped');
    assert.equal(t.requestAfterAnswer(1100), true);
  });
});
