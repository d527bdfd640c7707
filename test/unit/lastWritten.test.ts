import assert from 'node:assert/strict';
import { differs, snapshot, unknownContent, type SavableChat } from '../../src/common/conversation/lastWritten';
import { fileChanged, type FileStamp } from '../../src/common/conversation/fileRace';
import type { Item } from '../../src/common/transcript';

const user: Item = { kind: 'user', id: 'i1', text: 'hi' };
const agent: Item = { kind: 'agent', id: 'i2', text: 'hello' };
const tab = (over: Partial<SavableChat> = {}): SavableChat => ({
  id: 'tab1', agentName: 'Scripted', meta: { title: 'T' }, items: [user, agent], archived: [], archiveKey: undefined, queue: { size: 0, items: [] }, ...over,
});

describe('what a host wrote of a conversation last', () => {
  it('a tab as written is unchanged; a new item, title, session, queue or old turn is a change', () => {
    const s = tab();
    const w = snapshot(s, 'file1');
    assert.equal(differs(w, s), false);
    assert.equal(differs(w, tab()), false, 'the same items, another tab object');
    for (const other of [
      tab({ items: [user, agent, { kind: 'agent', id: 'i3', text: 'more' }] }), tab({ items: [user, { ...agent }] }), tab({ meta: { title: 'U' } }),
      tab({ sessionId: 's2' }), tab({ queue: { size: 1, items: [{ text: 'next', mentions: [], images: [] }] } }),
      tab({ archived: [{ id: 't1', prompt: 'p', answer: 'a' } as SavableChat['archived'][number]] }),
    ]) assert.equal(differs(w, other), true, JSON.stringify(other));
  });

  it('a file whose content is not known here differs from any tab, and says whether load() read it', () => {
    assert.equal(differs(unknownContent('f'), tab({ items: [] })), true);
    assert.equal(unknownContent('f', true).loaded, true);
    assert.equal(unknownContent('f').loaded, undefined);
  });
});

describe('a watched folder\'s conversation file changes', () => {
  const known: FileStamp = { ino: 1, size: 10, mtimeMs: 5 };
  const other: FileStamp = { ino: 2, size: 11, mtimeMs: 6 };
  it('this host\'s own version, or none: nothing', () => {
    assert.equal(fileChanged(known, { ...known }, false, () => true), 'nothing');
    assert.equal(fileChanged(known, undefined, false, () => true), 'nothing');
  });
  it('another host\'s version of an open tab\'s file: taken by a tab unchanged since it was loaded, else both kept; a closed tab\'s: nothing', () => {
    assert.equal(fileChanged(known, other, false, () => true), 'adopt');
    assert.equal(fileChanged(known, other, true, () => true), 'keepBoth');
    assert.equal(fileChanged(known, other, 'noTab', () => true), 'nothing');
  });
  it('a file no tab here saves to and this host never knew: restored in a folder of the workspace\'s own only', () => {
    assert.equal(fileChanged(undefined, other, undefined, () => true), 'restore');
    assert.equal(fileChanged(undefined, other, undefined, () => false), 'nothing');
    assert.equal(fileChanged(known, other, undefined, () => true), 'nothing', 'one it knew (its tab closed): not brought back');
  });
});
