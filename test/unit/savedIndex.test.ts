import assert from 'node:assert/strict';
import {
  chatFileKey, keptItems, legacyChats, MAX_SAVED_CHARS, parseChatFile, parseIndex, splitChat, type IndexEntry, type SavedChat,
} from '../../src/common/conversation/savedIndex';
import type { Item } from '../../src/common/transcript';

const KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const KEY2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const agent = (id: string, text: string) => ({ kind: 'agent', id, text }) as Item;

describe('saved conversations: index and files', () => {
  it('splits a conversation into a small index entry and its file, and joins them back as it was', () => {
    const chat: SavedChat = {
      id: 'tab3', agentName: 'A', sessionId: 's', title: 'T', items: [agent('a', 'x'.repeat(10_000))], archiveKey: KEY2,
      archived: [{ id: 'u0', prompt: 'p', answer: 'a', tools: 1, items: 3 }], queued: [{ text: 'next', mentions: ['f.ts'], images: [] }],
    };
    const { entry, content } = splitChat(chat, KEY);
    assert.deepEqual(entry, { id: 'tab3', agentName: 'A', file: KEY, sessionId: 's', title: 'T', archiveKey: KEY2 });
    assert.ok(JSON.stringify(entry).length < 200);
    assert.deepEqual(parseChatFile(entry, JSON.stringify(content)), { chat });
  });

  it('takes the session, title and old turns\' file from the conversation\'s file when its index entry is older (its update lost as the window closed)', () => {
    const chat: SavedChat = {
      id: 'tab3', agentName: 'A', sessionId: 's2', title: 'Later title', items: [agent('a', 'x')], archiveKey: KEY2,
      archived: [{ id: 'u0', prompt: 'p', answer: 'a', tools: 1, items: 3 }],
    };
    const { content } = splitChat(chat, KEY);
    // The index as saved before the first turn left memory and the title was set.
    const older: IndexEntry = { id: 'tab3', agentName: 'A', file: KEY, sessionId: 's1' };
    assert.deepEqual(parseChatFile(older, JSON.stringify(content)), { chat });
    // A file naming an old turns' file that is not one of ours is not followed.
    const bad = parseChatFile(older, JSON.stringify({ ...content, archiveKey: '../../x', sessionId: 7 }));
    assert.ok('chat' in bad && bad.chat.archiveKey === undefined && bad.chat.sessionId === 's1', JSON.stringify(bad));
  });

  it('reads an index entry only with its own kind of file name, each id and file once', () => {
    const ok: IndexEntry = { id: 'tab1', agentName: 'A', file: KEY };
    const entries = parseIndex([
      ok, { ...ok, file: KEY2 }, { id: 'tab2', agentName: 'A', file: KEY },
      { id: 'tab3', agentName: 'A', file: '../../../etc/passwd' }, { id: 'tab4', agentName: 'A', file: `${KEY}/x` },
      { id: 'tab5', agentName: 'A', file: KEY2, archiveKey: '../x' }, { id: 'tab6', agentName: 7, file: KEY2 }, { id: 'tab7', agentName: 'A', file: KEY2, title: {} },
      null, 'tab8', { id: 'tab9', agentName: 'A', file: KEY2, sessionId: 's9' },
    ]);
    assert.deepEqual(entries, [ok, { id: 'tab9', agentName: 'A', file: KEY2, sessionId: 's9' }]);
    assert.deepEqual(parseIndex('[]'), []);
    assert.deepEqual(parseIndex(undefined), []);
  });

  it('names why a file is not read: torn, not a conversation, another conversation\'s', () => {
    const entry: IndexEntry = { id: 'tab1', agentName: 'A', file: KEY };
    const text = JSON.stringify({ id: 'tab1', items: [agent('a', 'one')] });
    const torn = parseChatFile(entry, text.slice(0, 20));
    assert.ok('problem' in torn && torn.problem === 'notJson', JSON.stringify(torn));
    assert.deepEqual(parseChatFile(entry, '{"id":"tab1"}'), { problem: 'noItems' });
    assert.deepEqual(parseChatFile(entry, 'null'), { problem: 'noItems' });
    assert.deepEqual(parseChatFile(entry, text.replace('tab1', 'tab2')), { problem: 'otherConversation', detail: '"tab2"' });
  });

  it('drops what is malformed inside a readable file (items, summaries, queued messages), keeps the rest', () => {
    const entry: IndexEntry = { id: 'tab1', agentName: 'A', file: KEY };
    const read = parseChatFile(entry, JSON.stringify({
      id: 'tab1', items: [agent('a', 'one'), null, { kind: 'agent' }, 'x'],
      archived: [{ id: 'u', prompt: 'p', answer: '', tools: 0, items: 1 }, { id: 3 }], queued: [{ text: 'q', mentions: [], images: [] }, { text: 1 }],
    }));
    assert.ok('chat' in read);
    assert.deepEqual([read.chat.items.length, read.chat.archived?.length, read.chat.queued?.length], [1, 1, 1]);
  });

  it('knows its own file names and their temporary files, nothing else', () => {
    assert.equal(chatFileKey(`${KEY}.chat.json`), KEY);
    assert.equal(chatFileKey(`${KEY}.chat.json.tmp`), KEY);
    assert.equal(chatFileKey(`${KEY}.chat.json.12.tmp`), KEY);
    assert.equal(chatFileKey(`${KEY}.chat.json.12`), undefined);
    assert.equal(chatFileKey(`${KEY}.jsonl`), undefined);
    assert.equal(chatFileKey(`x${KEY}.chat.json`), undefined);
    assert.equal(chatFileKey('notes.chat.json'), undefined);
  });

  it('keeps a conversation\'s last items within MAX_SAVED_CHARS, as history (a pending permission is no longer answerable)', () => {
    const items: Item[] = [agent('long', 'z'.repeat(60_000)), ...Array.from({ length: 100 }, (_, n) => agent(`a${n}`, 'x'.repeat(45_000))),
      { kind: 'permission', id: 'p', permission: { requestId: 'r', title: 'Run?', options: [] } } as Item];
    const { items: kept, chars } = keptItems(items);
    assert.equal(kept.at(-1)?.id, 'p');
    assert.ok(kept.length > 80 && kept.length < 100 && kept[0].id !== 'long', `${kept.length} kept from ${kept[0].id}`);
    assert.ok(chars <= MAX_SAVED_CHARS);
    assert.equal((kept.at(-1) as Extract<Item, { kind: 'permission' }>).permission.outcome, 'cancelled');
    const [cut] = keptItems([items[0]]).items;
    assert.ok(cut.kind === 'agent' && cut.text.length < 50_010, 'a long text is cut (its turn file has it whole)');
  });

  it('reads an older version\'s conversations (one JSON string; before it, an array), each checked', () => {
    assert.equal(legacyChats(undefined, undefined), undefined, 'nothing to move');
    const v1 = [{ id: 't0', agentName: 'A', items: [{ kind: 'user', id: 'u', text: 'old' }] }];
    assert.deepEqual(legacyChats(undefined, v1)?.map(c => c.id), ['t0']);
    const v2 = JSON.stringify([
      { id: 't1', agentName: 'A', sessionId: 3, title: 'T', items: [agent('a', 'x'), 7], archiveKey: '../../x', queued: [{ text: 'q', mentions: [], images: [] }, 'q2'] },
      { id: 't1', agentName: 'A', items: [] }, { id: 't2', items: [] }, { id: 't3', agentName: 'B', items: [], archiveKey: KEY, archived: [{ id: 'u', prompt: '', answer: '', tools: 0, items: 1 }] },
    ]);
    assert.deepEqual(legacyChats(v2, v1), [
      { id: 't1', agentName: 'A', title: 'T', items: [agent('a', 'x')], queued: [{ text: 'q', mentions: [], images: [] }] },
      { id: 't3', agentName: 'B', items: [], archived: [{ id: 'u', prompt: '', answer: '', tools: 0, items: 1 }], archiveKey: KEY },
    ]);
    assert.deepEqual(legacyChats('{torn', undefined), [], 'a torn value: nothing, not a crash');
  });
});
