import assert from 'node:assert/strict';
import { SurfaceSelections } from '../../src/common/conversation/surfaces';

/** Conversations t1…t3 restored (t3 current), the side bar on t3 and an editor tab on t1. */
function sideAndEditor(): SurfaceSelections {
  const s = new SurfaceSelections();
  s.restore('t3');
  s.attach('side', undefined, ['t1', 't2', 't3']);
  s.attach('editor', 't1', ['t1', 't2', 't3']);
  return s;
}

describe('Chat surfaces (which conversation each shows, which one commands act on)', () => {
  it('with no surface, the restored (last) conversation is current, and a selection makes another current', () => {
    const s = new SurfaceSelections();
    s.restore('t2');
    assert.equal(s.current, 't2');
    assert.deepEqual(s.select('t1'), [], 'no surface changed');
    assert.equal(s.current, 't1');
  });

  it('a surface that appears shows the conversation it saved if still open, else the current one', () => {
    const s = sideAndEditor();
    assert.equal(s.shown('side'), 't3', 'nothing saved: the current one');
    assert.equal(s.shown('editor'), 't1', 'its saved conversation');
    assert.equal(s.attach('editor2', 'gone', ['t1', 't2', 't3']), 't3', 'saved but closed meanwhile: the current one');
    assert.equal(s.current, 't3', 'appearing is not using');
  });

  it('a tab picked in one surface changes that surface only, and makes its conversation current', () => {
    const s = sideAndEditor();
    assert.deepEqual(s.select('t2', 'editor'), ['editor']);
    assert.equal(s.shown('editor'), 't2');
    assert.equal(s.shown('side'), 't3', 'the other surface keeps its conversation');
    assert.equal(s.current, 't2');
    assert.deepEqual(s.select('t2', 'editor'), [], 'already shown: nothing changes');
  });

  it('the current conversation follows the surface used last', () => {
    const s = sideAndEditor();
    s.use('editor');
    assert.equal(s.current, 't1');
    s.use('side');
    assert.equal(s.current, 't3');
    s.use('unknown');
    assert.equal(s.current, 't3', 'a surface that is gone is never used');
  });

  it('a conversation opened by a command shows in the surface used last only', () => {
    const s = sideAndEditor();
    s.use('editor');
    assert.deepEqual(s.select('t4'), ['editor']);
    assert.equal(s.shown('editor'), 't4');
    assert.equal(s.shown('side'), 't3');
    assert.equal(s.current, 't4');
  });

  it('a closed conversation: each surface that showed it goes back to the one it showed before, else the last open', () => {
    const s = sideAndEditor();
    s.select('t2', 'editor'); // editor: t2, before it t1
    s.select('t2', 'side'); // side: t2, before it t3
    assert.deepEqual(new Set(s.closed('t2', ['t1', 't3'])), new Set(['side', 'editor']));
    assert.equal(s.shown('editor'), 't1');
    assert.equal(s.shown('side'), 't3');
    assert.equal(s.current, 't3', 'the side bar was used last');
    assert.deepEqual(s.closed('t1', ['t3']), ['editor']);
    assert.equal(s.shown('editor'), 't3', 'nothing it showed before is open: the last open one');
  });

  it('closing a conversation no surface shows changes no surface', () => {
    const s = sideAndEditor();
    assert.deepEqual(s.closed('t2', ['t1', 't3']), []);
    assert.equal(s.shown('side'), 't3');
    assert.equal(s.shown('editor'), 't1');
  });

  it('with no surface, closing the current conversation makes the one current before it current again', () => {
    const s = new SurfaceSelections();
    s.restore('t1');
    s.select('t2');
    s.select('t3');
    s.closed('t3', ['t1', 't2']);
    assert.equal(s.current, 't2');
    s.closed('t2', ['t1']);
    assert.equal(s.current, 't1');
  });

  it('a surface that goes away: the conversation of the surface used before it is current', () => {
    const s = sideAndEditor();
    s.use('editor');
    s.detach('editor');
    assert.deepEqual(s.surfaces, ['side']);
    assert.equal(s.current, 't3');
    s.detach('side');
    assert.equal(s.current, 't3', 'no surface left: the current conversation stays');
  });

  it('"show conversation X" prefers a visible surface already showing it, then any surface showing it, then the visible one used last', () => {
    const s = sideAndEditor();
    s.use('side');
    const visible = (ids: string[]) => (id: string) => ids.includes(id);
    assert.equal(s.placeFor('t1', visible(['side', 'editor'])), 'editor', 'shown in the editor tab already');
    assert.equal(s.placeFor('t1', visible(['side'])), 'editor', 'shown in a hidden editor tab: that one is brought to front');
    assert.equal(s.placeFor('t2', visible(['editor'])), 'editor', 'shown nowhere: the visible surface');
    assert.equal(s.placeFor('t2', visible([])), 'side', 'nothing visible: the surface used last');
    assert.equal(new SurfaceSelections().placeFor('t2', () => true), undefined, 'no surface at all');
  });

  it('reload with three conversations on two surfaces: each surface gets its own back', () => {
    const s = new SurfaceSelections();
    s.restore('t3');
    assert.equal(s.attach('editor', 't2', ['t1', 't2', 't3']), 't2');
    assert.equal(s.attach('side', 't1', ['t1', 't2', 't3']), 't1');
    s.use('editor');
    assert.equal(s.current, 't2');
  });
});
