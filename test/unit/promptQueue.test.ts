import assert from 'node:assert/strict';
import { PromptQueue } from '../../src/common/promptQueue';
import { steeringOutcome, steeringRequest, supportsSteering } from '../../src/common/steering';

const msg = (text: string) => ({ text, mentions: [], images: [] });
const texts = (q: PromptQueue) => q.items.map(i => i.text);

describe('prompt queue', () => {
  it('sends in the order typed, one per ended turn', () => {
    const q = new PromptQueue();
    q.add(msg('one'));
    q.add({ text: 'two', mentions: ['src/a.ts'], images: [{ mimeType: 'image/png', data: 'AA==' }] });
    assert.equal(q.takeNext()?.text, 'one');
    const two = q.takeNext();
    assert.deepEqual([two?.text, two?.mentions, two?.images.length], ['two', ['src/a.ts'], 1]);
    assert.equal(q.takeNext(), undefined);
  });

  it('edits: the message being edited holds the queue (nothing overtakes it); saved text replaces it, empty text removes it', () => {
    const q = new PromptQueue();
    const a = q.add(msg('a'));
    q.add(msg('b'));
    assert.ok(q.beginEdit(a.id));
    assert.equal(q.items[0].editing, true);
    assert.equal(q.takeNext(), undefined, 'b does not overtake a');
    assert.equal(q.endEdit(a.id, 'a, edited'), 'saved');
    assert.deepEqual(texts(q), ['a, edited', 'b']);
    assert.equal(q.items[0].editing, undefined);
    assert.ok(q.beginEdit(a.id));
    assert.equal(q.endEdit(a.id), 'cancelled');
    assert.deepEqual(texts(q), ['a, edited', 'b']);
    assert.ok(q.beginEdit(a.id));
    assert.equal(q.endEdit(a.id, '   '), 'removed');
    assert.deepEqual(texts(q), ['b']);
    assert.equal(q.endEdit('gone', 'x'), undefined);
  });

  it('removes any message, but not one on its way into the turn', () => {
    const q = new PromptQueue();
    const a = q.add(msg('a'));
    const b = q.add(msg('b'));
    assert.equal(q.remove(a.id)?.text, 'a');
    assert.ok(q.beginSteer(b.id));
    assert.equal(q.remove(b.id), undefined);
    assert.equal(q.beginEdit(b.id), false);
    assert.deepEqual(texts(q), ['b']);
  });

  it('Send now: one at a time; delivered leaves the queue, while it is on its way nothing is sent', () => {
    const q = new PromptQueue();
    const a = q.add(msg('a'));
    const b = q.add(msg('b'));
    assert.equal(q.beginSteer(b.id)?.text, 'b');
    assert.equal(q.beginSteer(a.id), undefined, 'one steer at a time');
    assert.equal(q.takeNext(), undefined, 'its outcome decides what comes next');
    q.steered(b.id);
    assert.deepEqual(texts(q), ['a']);
    assert.equal(q.takeNext()?.text, 'a');
  });

  it('Send now not taken: with an error it stays in place, showing it; without (the turn had ended) it goes first', () => {
    const q = new PromptQueue();
    q.add(msg('a'));
    const b = q.add(msg('b'));
    q.beginSteer(b.id);
    q.notSteered(b.id, 'Method not found');
    assert.deepEqual(q.items.map(i => [i.text, i.error, i.steering]), [['a', undefined, undefined], ['b', 'Method not found', undefined]]);
    q.beginSteer(b.id);
    assert.equal(q.items[1].error, undefined, 'a new attempt forgets the old error');
    q.notSteered(b.id);
    assert.deepEqual(texts(q), ['b', 'a']);
    assert.equal(q.takeNext()?.error, undefined, 'what is sent carries no display state');
  });

  it('pauses (Stop): nothing is taken until resumed; a message that could not be sent goes back first and pauses', () => {
    const q = new PromptQueue();
    q.add(msg('a'));
    q.pause();
    assert.equal(q.takeNext(), undefined);
    q.resume();
    const a = q.takeNext()!;
    q.add(msg('b'));
    q.putBack(a);
    assert.deepEqual([texts(q), q.paused], [['a', 'b'], true]);
  });

  it('takes any message out to send it now, but not one being edited', () => {
    const q = new PromptQueue();
    const a = q.add(msg('a'));
    const b = q.add(msg('b'));
    q.beginEdit(a.id);
    assert.equal(q.take(a.id), undefined);
    assert.equal(q.take(b.id)?.text, 'b');
    assert.deepEqual(texts(q), ['a']);
  });
});

describe('steering (_session/steering)', () => {
  it('is supported only when initialize says so in its top-level _meta', () => {
    assert.equal(supportsSteering({ _meta: { steering: { supported: true } } }), true);
    for (const info of [undefined, {}, { _meta: null }, { _meta: { steering: true } }, { _meta: { steering: { supported: 'yes' } } }, { _meta: { steering: { supported: false } } }]) {
      assert.equal(supportsSteering(info), false, JSON.stringify(info));
    }
  });

  it('asks the agent not to start a turn of its own when none runs', () => {
    assert.deepEqual(steeringRequest('s1', [{ type: 'text', text: 'hi' }]),
      { sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }], _meta: { steering: { idleBehavior: 'promptRequired' } } });
  });

  it('reads the outcome; anything else is "failed"', () => {
    assert.equal(steeringOutcome({ outcome: 'injected' }), 'injected');
    assert.equal(steeringOutcome({ outcome: 'startedNewTurn' }), 'startedNewTurn');
    assert.equal(steeringOutcome({ outcome: 'promptRequired', reason: 'noRunningTurn' }), 'promptRequired');
    for (const r of [{ outcome: 'failed' }, {}, null, 'injected', { outcome: 'later' }]) assert.equal(steeringOutcome(r), 'failed');
  });
});
