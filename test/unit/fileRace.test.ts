import assert from 'node:assert/strict';
import { fileWindow, mergeDrafts, recentUnlisted, UNLISTED_RECENT_MS, whoseFile, WINDOW_HEAD_BYTES, type DraftEntry, type FileStamp } from '../../src/common/conversation/fileRace';
import { parseChatFile, splitChat } from '../../src/common/conversation/savedIndex';

const KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const read: FileStamp = { ino: 7, size: 100, mtimeMs: 1_000 };

describe('a reload\'s two extension hosts writing the same conversation files', () => {
  it('writes over a file only if it is the version this host read or wrote last', () => {
    assert.equal(whoseFile(read, { ...read }, true), 'ours');
    assert.equal(whoseFile(undefined, read, true), 'ours', 'a file this host made (never read): its own');
    assert.equal(whoseFile(read, undefined, true), 'ours', 'gone: written again');
  });

  it('another host\'s write (a temporary file renamed: another inode; or another size or time) is taken by a tab not changed since it was loaded, else kept beside it', () => {
    for (const other of [{ ...read, ino: 8 }, { ...read, size: 101 }, { ...read, mtimeMs: 1_001 }]) {
      assert.equal(whoseFile(read, other, false), 'adopt', JSON.stringify(other));
      assert.equal(whoseFile(read, other, true), 'keepBoth', JSON.stringify(other));
    }
  });

  it('restores the files no index lists that were written within the last minute, oldest first; older ones and listed ones are not', () => {
    const now = 10 * UNLISTED_RECENT_MS;
    const files = [
      { key: 'b', mtimeMs: now - 1_000 }, { key: 'a', mtimeMs: now - 5_000 }, { key: 'old', mtimeMs: now - UNLISTED_RECENT_MS - 1 },
      { key: 'listed', mtimeMs: now - 10 }, { key: 'edge', mtimeMs: now - UNLISTED_RECENT_MS },
    ];
    assert.deepEqual(recentUnlisted(files, new Set(['listed']), now), ['edge', 'a', 'b']);
  });

  it('a file no index lists names its conversation and agent itself; one an older version wrote (no agent in it) is not taken', () => {
    const { content } = splitChat({ id: 'tab4', agentName: 'Claude', title: 'Just created', items: [{ kind: 'user', id: 'i1', text: 'hi' }] }, KEY);
    assert.deepEqual(parseChatFile(KEY, JSON.stringify(content)), { chat: { id: 'tab4', agentName: 'Claude', title: 'Just created', items: [{ kind: 'user', id: 'i1', text: 'hi' }] } });
    const { agentName: _, ...older } = content;
    assert.deepEqual(parseChatFile(KEY, JSON.stringify(older)), { problem: 'unnamed' });
    assert.deepEqual(parseChatFile(KEY, JSON.stringify({ ...content, id: 3 })), { problem: 'unnamed' });
  });
});

describe('the drafts a reload\'s two extension hosts write', () => {
  const d = (text: string) => ({ text, mentions: [], images: [] });
  const empty = d('');

  it('a prompt box not typed in here since the drafts were read takes the other host\'s newer text, or is emptied with it', () => {
    const base: DraftEntry[] = [['tab1', d('fix the bu'), 'view'], ['tab2', d('sent there'), '']];
    assert.deepEqual(mergeDrafts(base, base, [['tab1', d('fix the bug'), 'view']]), [['tab1', d('fix the bug'), 'view'], ['tab2', empty, '']]);
    assert.deepEqual(mergeDrafts([], [], [['tab3', d('new there'), 'editor1']]), [['tab3', d('new there'), 'editor1']], 'a box with no draft here');
  });

  it('a box typed in here since keeps both texts, the other host\'s first; not twice when one begins with the other', () => {
    const base: DraftEntry[] = [['tab1', d('fix the bu'), 'view']];
    assert.deepEqual(mergeDrafts(base, [['tab1', d('fix the bu and a test'), 'view']], [['tab1', d('fix the bug'), 'view']]),
      [['tab1', d('fix the bug\n\nfix the bu and a test'), 'view']]);
    assert.deepEqual(mergeDrafts(base, [['tab1', d('fix the bug, then test'), 'view']], [['tab1', d('fix the bug'), 'view']]),
      [['tab1', d('fix the bug, then test'), 'view']]);
  });

  it('nothing changes where the other host did not change the box, has the same text, or emptied one typed in here since', () => {
    const base: DraftEntry[] = [['tab1', d('a'), 'view'], ['tab2', d('b'), '']];
    const ours: DraftEntry[] = [['tab1', d('a, typed on'), 'view'], ['tab2', d('b, typed on'), '']];
    assert.deepEqual(mergeDrafts(base, ours, [['tab1', d('a'), 'view']]), [], 'tab1 unchanged there; tab2 emptied there, typed in here');
    assert.deepEqual(mergeDrafts(base, ours, ours), []);
    assert.deepEqual(mergeDrafts([['tab1', d('a')]], [['tab1', d('a'), '']], [['tab1', d('b')]]), [['tab1', d('b'), '']],
      'surface none and \'\' are the same box');
  });
});

describe('a conversation file in the folder windows without a folder share', () => {
  it('names the window that writes it at its beginning; a file without (an older version\'s, or not one) names none', () => {
    const head = JSON.stringify({ window: KEY, id: 'tab1', agentName: 'Claude', items: [] }).slice(0, WINDOW_HEAD_BYTES);
    assert.equal(fileWindow(head), KEY);
    assert.equal(fileWindow(JSON.stringify({ id: 'tab1', window: KEY })), undefined, 'only at the beginning');
    assert.equal(fileWindow(JSON.stringify({ window: '../x' })), undefined);
    assert.equal(fileWindow(''), undefined);
  });
});
