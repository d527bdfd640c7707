import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { Item, Transcript } from '../../src/common/transcript';
import { RECENT_TURNS_EXPANDED, splitTurns, summarizeTurn, TurnList, turnsToArchive } from '../../src/common/turns';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

/** A transcript of `n` turns, each a prompt, an answer of `size` characters and its end. */
function conversation(n: number, size = 10): Transcript {
  const t = new Transcript();
  for (let k = 1; k <= n; k++) {
    t.addUser(`prompt ${k}\nsecond line`);
    t.applyUpdate(chunk(`answer ${k} `.padEnd(size, 'x')));
    t.endTurn('end_turn');
  }
  return t;
}

describe('turns', () => {
  it('splits items at each prompt; what came before the first prompt is a turn of its own', () => {
    const items: Item[] = [
      { kind: 'notice', id: 'i1', text: 'restored' },
      { kind: 'user', id: 'i2', text: 'a' }, { kind: 'agent', id: 'i3', text: 'b' },
      { kind: 'user', id: 'i4', text: 'c' }, { kind: 'turnEnd', id: 'i5', stopReason: 'end_turn' },
    ];
    assert.deepEqual(splitTurns(items).map(t => t.map(i => i.id)), [['i1'], ['i2', 'i3'], ['i4', 'i5']]);
  });

  it('summarizes a turn by its prompt, the beginning of its answer, its tool calls and how it ended', () => {
    const t = conversation(1);
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read' });
    const s = summarizeTurn(t.snapshot());
    assert.deepEqual(s, { id: 'i1', prompt: 'prompt 1', answer: 'answer 1 x', tools: 1, items: 4, stopReason: 'end_turn' });
    const helperFirst = summarizeTurn([{ kind: 'user', id: 'i1', text: 'p' }, { kind: 'agent', id: 'i2', text: 'helper text', inChild: 'c1' }, { kind: 'agent', id: 'i3', text: 'own answer' }]);
    assert.equal(helperFirst.answer, 'own answer', 'a helper agent\'s text is not the answer');
    const long = summarizeTurn([{ kind: 'user', id: 'i9', text: `\n\n  ${'y'.repeat(500)}` }]);
    assert.equal(long.prompt, 'y'.repeat(160) + '…');
  });

  it('keeps the last turns in memory, within a turn count and a size, and always the last ones', () => {
    const bound = { maxTurns: 3, maxChars: 100, minTurns: 2 };
    assert.equal(turnsToArchive([10, 10], bound), 0);
    assert.equal(turnsToArchive([10, 10, 10, 10, 10], bound), 2, 'beyond 3 turns');
    assert.equal(turnsToArchive([10, 60, 30, 30], bound), 2, 'beyond 100 characters');
    assert.equal(turnsToArchive([10, 500, 500], bound), 1, 'the last two turns stay however large');
    assert.equal(turnsToArchive([10, 500], { ...bound, minTurns: 0 }), 1, 'the last turn stays');
  });

  it('takes the oldest whole turns out of the transcript, which goes on as before', () => {
    const t = conversation(6);
    const old = t.takeOldTurns({ maxTurns: 4, maxChars: 1e9, minTurns: 1 });
    assert.deepEqual(old.map(turn => (turn[0] as Extract<Item, { kind: 'user' }>).text.split('\n')[0]), ['prompt 1', 'prompt 2']);
    assert.equal(splitTurns(t.snapshot()).length, 4);
    assert.equal(t.get(old[0][0].id), undefined);
    // Lookups by id still work on what stayed, and new items follow.
    const kept = t.snapshot()[0];
    assert.equal(t.get(kept.id), kept);
    const ops = t.addUser('next');
    assert.equal(t.get((ops[0] as { item: Item }).item.id)?.kind, 'user');
    assert.equal(t.takeOldTurns({ maxTurns: 10, maxChars: 1e9, minTurns: 1 }).length, 0);
  });

  it('the host keeps a bounded transcript however long the conversation', () => {
    const t = new Transcript();
    for (let k = 0; k < 200; k++) {
      t.addUser(`p${k}`);
      t.applyUpdate(chunk('z'.repeat(50_000)));
      t.endTurn('end_turn');
      t.takeOldTurns();
    }
    assert.ok(splitTurns(t.snapshot()).length <= 20);
  });

  it('finds, extends and replaces items by id after old turns were taken out many times', () => {
    const t = new Transcript();
    for (let k = 0; k < 60; k++) {
      t.addUser(`p${k}`);
      t.applyUpdate(chunk('z'.repeat(20_000)));
      t.endTurn('end_turn');
      t.takeOldTurns({ maxTurns: 5, maxChars: 1e9, minTurns: 1 });
    }
    for (const item of t.snapshot()) assert.equal(t.get(item.id), item);
    t.addUser('last');
    const [add] = t.applyUpdate(chunk('a'));
    t.applyUpdate(chunk('b'));
    const id = (add as { item: Item }).item.id;
    assert.equal((t.get(id) as Extract<Item, { kind: 'agent' }>).text, 'ab');
    assert.equal(t.snapshot().at(-1)!.id, id);
    t.takeOldTurns({ maxTurns: 2, maxChars: 1e9, minTurns: 1 });
    t.applyUpdate(chunk('c'));
    assert.equal((t.get(id) as Extract<Item, { kind: 'agent' }>).text, 'abc');
    assert.equal((t.snapshot().at(-1) as Extract<Item, { kind: 'agent' }>).text, 'abc');
  });
});

describe('TurnList (the chat view\'s turns)', () => {
  const items = (n: number) => conversation(n).snapshot();

  it('builds turns from archived summaries and items, and follows operations', () => {
    const list = new TurnList();
    const archived = splitTurns(items(2)).map(summarizeTurn);
    const t = conversation(0);
    const held = [...t.addUser('hello'), ...t.applyUpdate(chunk('Hi'))].map(op => (op as { item: Item }).item);
    list.reset(archived.map(s => ({ ...s, id: 'old' + s.id })), held);
    assert.equal(list.length, 3);
    assert.equal(list.at(0)!.items, undefined);
    assert.deepEqual(list.apply({ op: 'append', id: held[1].id, text: ' there' }), { index: 2, added: false });
    assert.equal((list.at(2)!.items![1] as Extract<Item, { kind: 'agent' }>).text, 'Hi there');
    assert.deepEqual(list.apply({ op: 'add', item: { kind: 'turnEnd', id: 'e', stopReason: 'end_turn' } }), { index: 2, added: false });
    assert.deepEqual(list.apply({ op: 'add', item: { kind: 'user', id: 'u', text: 'again' } }), { index: 3, added: true });
    assert.deepEqual(list.apply({ op: 'replace', item: { kind: 'agent', id: held[1].id, text: 'Hello' } }), { index: 2, added: false });
    assert.equal(list.apply({ op: 'append', id: 'unknown', text: 'x' }), undefined);
  });

  it('collapses completed turns older than the last few, unless the user opened them; never the last', () => {
    const list = new TurnList();
    const n = RECENT_TURNS_EXPANDED + 4;
    list.reset([], items(n));
    const collapsed = () => list.turns.map((_, i) => list.collapsed(i));
    assert.deepEqual(collapsed(), [true, true, true, ...Array(RECENT_TURNS_EXPANDED + 1).fill(false)]);
    list.toggle(1);
    list.toggle(n - 2);
    assert.deepEqual(collapsed(), [true, false, true, ...Array(RECENT_TURNS_EXPANDED - 1).fill(false), true, false]);
    list.toggle(n - 1);
    assert.equal(list.collapsed(n - 1), false, 'the last turn');
  });

  it('keeps the items of a bounded number of turns; the dropped ones keep their summary and load again', () => {
    const list = new TurnList();
    list.reset([], items(40));
    const dropped = list.evict(new Set([3]), 10);
    assert.equal(list.turns.filter(t => t.items).length, 10);
    assert.ok(!dropped.includes(3) && list.at(3)!.items, 'a turn on screen keeps its items');
    assert.ok(list.at(39)!.items && list.at(39 - RECENT_TURNS_EXPANDED)!.items, 'the last turns keep theirs');
    assert.equal(list.summary(0)!.prompt, 'prompt 1');
    const first = list.at(0)!;
    const again = splitTurns(items(1))[0];
    assert.equal(list.load(first.id, again), 0);
    assert.equal(list.at(0)!.items!.length, again.length);
    assert.equal(list.load(first.id, again), -1, 'loaded once');
    assert.equal(list.indexOfItem(again[1].id), 0);
  });
});
