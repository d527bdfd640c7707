import assert from 'node:assert/strict';
import { mock } from 'node:test';
import type * as vscode from 'vscode';
import type { Item } from '../../src/common/transcript';
import { saveDelay, SavedChats, STREAMING_WAIT_MS, type SavableChat } from '../../src/session/savedChats';

describe('savedChats saveDelay', () => {
  it('saves a conversation of usual size within a second', () => {
    assert.equal(saveDelay(0), 1000);
    assert.equal(saveDelay(400_000), 1000);
  });
  it('spaces the saves of a large conversation by its size, up to 5 s', () => {
    assert.equal(saveDelay(1_500_000), 3000);
    assert.equal(saveDelay(4_000_000), 5000);
  });
});

describe('savedChats while an agent answers', () => {
  // Node's mock timers (node:test) drive setTimeout and Date.now; nothing waits for real.
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
  afterEach(() => mock.timers.reset());

  function memento() {
    const writes: unknown[] = [];
    const state = { get: () => undefined, keys: () => [], update: (_k: string, v: unknown) => { writes.push(v); return Promise.resolve(); } };
    return { writes, state: state as unknown as vscode.Memento };
  }
  const chat = (inTurn: boolean): SavableChat => ({
    id: 't1', agentName: 'A', meta: {}, archived: [], archiveKey: undefined, queue: { size: 0, items: [] }, inTurn,
    items: [{ kind: 'agent', id: 'a1', text: 'hello' } as Item],
  });

  it('saves when the turn ends, not while it streams', () => {
    const { writes, state } = memento();
    const saved = new SavedChats(state);
    let session = chat(true);
    saved.schedule(() => [session]);
    mock.timers.tick(10_000);
    assert.equal(writes.length, 0);
    session = chat(false);
    mock.timers.tick(1000);
    assert.equal(writes.length, 1);
  });

  it('saves within a second when no agent is answering, and at the latest after STREAMING_WAIT_MS of a turn', () => {
    const { writes, state } = memento();
    const saved = new SavedChats(state);
    saved.schedule(() => [chat(false)]);
    mock.timers.tick(1000);
    assert.equal(writes.length, 1);
    saved.schedule(() => [chat(true)]);
    mock.timers.tick(STREAMING_WAIT_MS - 1000);
    assert.equal(writes.length, 1);
    mock.timers.tick(2000);
    assert.equal(writes.length, 2);
  });
});

describe('savedChats format', () => {
  const store = (init: Record<string, unknown> = {}) => {
    const m = new Map(Object.entries(init));
    return { m, state: { get: (k: string) => m.get(k), keys: () => [...m.keys()], update: (k: string, v: unknown) => { if (v === undefined) m.delete(k); else m.set(k, v); return Promise.resolve(); } } as unknown as vscode.Memento };
  };
  const session: SavableChat = { id: 't1', agentName: 'A', meta: { title: 'T' }, archived: [], archiveKey: undefined, queue: { size: 0, items: [] }, items: [{ kind: 'agent', id: 'a1', text: 'hello' } as Item] };

  it('keeps the conversations as one string (cheap for the window to take), read back as they were', () => {
    const { m, state } = store();
    new SavedChats(state).flush([session]);
    assert.deepEqual([...m.keys()], ['switchboard.chats.v2']);
    assert.equal(typeof m.get('switchboard.chats.v2'), 'string');
    const [chat] = new SavedChats(state).load();
    assert.deepEqual([chat.id, chat.title, chat.items], ['t1', 'T', session.items]);
  });

  it('reads conversations saved in the earlier form, and clears it at the next save', () => {
    const { m, state } = store({ 'switchboard.chats.v1': [{ id: 't0', agentName: 'A', items: [{ kind: 'user', id: 'u', text: 'old' }] }] });
    const saved = new SavedChats(state);
    assert.deepEqual(saved.load().map(c => c.id), ['t0']);
    saved.flush([session]);
    assert.equal(m.has('switchboard.chats.v1'), false);
    assert.deepEqual(new SavedChats(state).load().map(c => c.id), ['t1']);
  });
});
