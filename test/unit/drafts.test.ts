import assert from 'node:assert/strict';
import { DraftBook, restoreDrafts, takenInto, withReturned, type Draft } from '../../src/common/conversation/drafts';

const d = (text: string, images: string[] = []): Draft => ({ text, mentions: [], images: images.map(data => ({ mimeType: 'image/png', data })) });

describe('drafts per conversation', () => {
  it('each conversation keeps its own; an empty one is none; a closed conversation forgets its draft', () => {
    const book = new DraftBook();
    book.set('a', d('for a'));
    book.set('b', d('for b'));
    assert.equal(book.get('a')?.text, 'for a');
    assert.equal(book.get('b')?.text, 'for b');
    book.set('a', d(''));
    assert.equal(book.get('a'), undefined);
    assert.equal(book.keepOnly(['a']), true);
    assert.equal(book.get('b'), undefined);
    assert.equal(book.keepOnly(['a']), false);
  });

  it('a prompt on its way to its agent is the draft until it arrives; not sent, it comes back, before what was typed since', () => {
    const book = new DraftBook();
    const p = d('sent');
    book.hold('a', p);
    assert.equal(book.get('a'), p);
    assert.equal(book.get('b'), undefined);
    assert.equal(book.release('a', d('other'), true), false);
    assert.equal(book.release('a', p, false), true);
    assert.equal(book.get('a'), p);
    const q = d('again');
    book.set('a', d(''));
    book.hold('a', q);
    book.set('a', d('typed meanwhile'));
    book.release('a', q, false);
    assert.equal(book.get('a')?.text, 'again\n\ntyped meanwhile', 'neither is lost');
    // A new page got the held prompt as the draft and saved it back, then the prompt was not sent: once.
    const t = d('once');
    book.set('a', d(''));
    book.hold('a', t);
    book.set('a', d('once'));
    book.release('a', t, false);
    assert.equal(book.get('a')?.text, 'once');
    const r = d('arrives');
    book.set('a', d(''));
    book.hold('a', r);
    book.release('a', r, true);
    assert.equal(book.get('a'), undefined);
  });

  it('a prompt given back and what was typed since: both, the prompt first; mentions once; images of both', () => {
    const sent: Draft = { text: 'fix the parser', mentions: ['src/a.ts', 'src/b.ts'], images: [{ mimeType: 'image/png', data: 'p' }] };
    const typed: Draft = { text: 'and the tests', mentions: ['src/b.ts', 'src/c.ts'], images: [{ mimeType: 'image/gif', data: 't' }] };
    assert.deepEqual(withReturned(sent, typed), {
      text: 'fix the parser\n\nand the tests', mentions: ['src/a.ts', 'src/b.ts', 'src/c.ts'], images: [sent.images[0], typed.images[0]],
    });
    assert.equal(withReturned(sent, undefined), sent);
    assert.equal(withReturned(sent, d('')), sent, 'nothing typed: the prompt as it was');
    assert.equal(withReturned(d('', ['img']), d('words')).text, 'words', 'no blank line for a prompt of an image only');
    // Given back to a page that already has it (a new page got it as the draft first): not twice.
    assert.deepEqual(withReturned(sent, sent), sent);
    assert.deepEqual(withReturned(sent, { ...sent, text: 'fix the parser\n\nand more' }).text, 'fix the parser\n\nand more');
  });

  it('another window\'s draft taken into a prompt box: over it while it holds what this window knew, else before what was typed since', () => {
    const taken = d('fix the bug in the parser');
    // The box still holds what the host knew (or nothing): replaced.
    assert.deepEqual(takenInto(d('fix the bu'), { text: 'fix the bu', images: 0 }, taken), taken);
    assert.deepEqual(takenInto(d(''), { text: 'fix the bu', images: 0 }, taken), taken);
    // Typed meanwhile (text, or an image pasted): both, the taken draft first; nothing lost.
    assert.equal(takenInto(d('fix the bu and add a test'), { text: 'fix the bu', images: 0 }, taken).text, 'fix the bug in the parser\n\nfix the bu and add a test');
    const pasted = takenInto(d('fix the bu', ['img']), { text: 'fix the bu', images: 0 }, taken);
    assert.equal(pasted.text, 'fix the bug in the parser\n\nfix the bu');
    assert.deepEqual(pasted.images.map(i => i.data), ['img']);
  });

  it('saves the drafts changed last at the end, and images within one budget, the latest drafts first', () => {
    const book = new DraftBook();
    book.set('a', d('a', ['x'.repeat(6)]));
    book.set('b', d('b', ['y'.repeat(5)]));
    book.set('c', d('c', ['z'.repeat(4)]));
    const saved = book.toSave(10);
    assert.deepEqual(saved.map(([tab]) => tab), ['a', 'b', 'c']);
    assert.deepEqual(saved.map(([, s]) => s.images.length), [0, 1, 1], 'c and b fit in 10, a does not');
    assert.deepEqual(saved.map(([, s]) => s.text), ['a', 'b', 'c'], 'the text is kept');
    book.set('a', d('a2'));
    assert.deepEqual(book.toSave(10).map(([tab]) => tab), ['b', 'c', 'a']);
  });

  it('two surfaces showing one conversation keep each its own text; an empty box clears only its own; the same text is one draft', () => {
    const book = new DraftBook();
    book.set('a', d('typed in the side bar'), 'view');
    book.set('a', d('typed in the editor tab'), 'editor');
    assert.equal(book.get('a', 'view')?.text, 'typed in the side bar', 'a new page of the side bar gets its own text back');
    assert.equal(book.get('a', 'editor')?.text, 'typed in the editor tab');
    assert.equal(book.get('a')?.text, 'typed in the editor tab', 'no surface named: the one saved last');
    // The editor tab sent its prompt (its box is empty): the side bar's text stays.
    book.set('a', d(''), 'editor');
    assert.equal(book.get('a', 'view')?.text, 'typed in the side bar');
    assert.equal(book.get('a', 'editor')?.text, 'typed in the side bar', 'a surface with none of its own gets the conversation\'s');
    // A surface that got the conversation's draft saves it back: one draft, now that surface's; sent from there, it is gone.
    book.set('a', d('typed in the side bar'), 'editor');
    book.set('a', d(''), 'editor');
    assert.equal(book.get('a', 'view'), undefined, 'a prompt sent from the other surface does not come back');
    // Saved with the surfaces, and restored so.
    book.set('a', d('one'), 'view');
    book.set('a', d('two'), 'editor');
    const again = restoreDrafts(book.toSave(100), undefined, ['a'], 'a');
    assert.deepEqual([again.get('a', 'view')?.text, again.get('a', 'editor')?.text], ['one', 'two']);
  });

  it('after a reload: each open conversation gets its own back; a homeless draft or the old one-per-window draft goes to the shown one', () => {
    const saved: [string, Draft][] = [['gone1', d('older homeless')], ['a', d('for a')], ['gone2', d('newest homeless')], ['b', d('for b')]];
    let book = restoreDrafts(saved, undefined, ['a', 'b', 'c'], 'c');
    assert.deepEqual(['a', 'b', 'c'].map(t => book.get(t)?.text), ['for a', 'for b', 'newest homeless']);
    assert.equal(book.get('gone1'), undefined);
    // The shown conversation has its own: nothing else is given to it.
    book = restoreDrafts(saved, d('old'), ['a', 'b'], 'a');
    assert.equal(book.get('a')?.text, 'for a');
    // An older version's one draft: into the conversation shown.
    book = restoreDrafts([], d('from 0.3'), ['a', 'b'], 'b');
    assert.deepEqual(['a', 'b'].map(t => book.get(t)?.text), [undefined, 'from 0.3']);
    assert.equal(restoreDrafts([], d('x'), [], '').toSave(0).length, 0);
  });
});
