import assert from 'node:assert/strict';
import type { Item } from '../../src/common/transcript';
import { estimateItemHeight, ITEM_WINDOW_FROM, windowed } from '../../src/common/itemWindow';

const tool = (text: string, locations = 0): Item => ({
  kind: 'tool', id: 't', tool: {
    toolCallId: 't', title: 'Run', kind: 'execute', status: 'completed', content: [{ type: 'text', text }],
    locations: Array.from({ length: locations }, (_, i) => ({ path: `f${i}` })),
  } as never,
});

describe('item window', () => {
  it('renders every item of a short turn, and only those in view of a long one', () => {
    assert.equal(windowed(ITEM_WINDOW_FROM), false);
    assert.equal(windowed(ITEM_WINDOW_FROM + 1), true);
    assert.equal(windowed(5000), true);
  });

  it('guesses an item taller as its text has more lines, up to the height of its scrolled box', () => {
    const short = estimateItemHeight(tool('one line'));
    const longer = estimateItemHeight(tool('a\nb\nc\nd\ne\nf'));
    const huge = estimateItemHeight(tool('x\n'.repeat(100_000)));
    assert.ok(short < longer, `${short} < ${longer}`);
    assert.ok(longer < huge);
    assert.equal(huge, estimateItemHeight(tool('y\n'.repeat(200))), 'the output box scrolls: its height is capped');
    assert.ok(estimateItemHeight(tool('x', 2)) > estimateItemHeight(tool('x')), 'locations take a line');
  });

  it('guesses a long unbroken line as the lines it wraps to, without scanning all of it', () => {
    const wrapped = estimateItemHeight({ kind: 'agent', id: 'a', text: 'x'.repeat(800) });
    const one = estimateItemHeight({ kind: 'agent', id: 'a', text: 'x' });
    assert.ok(wrapped >= one + 9 * 20, `${wrapped} vs ${one}`);
    assert.ok(estimateItemHeight({ kind: 'agent', id: 'a', text: 'x'.repeat(50_000_000) }) < 20_000);
  });

  it('guesses every kind of item a positive height', () => {
    const items: Item[] = [
      { kind: 'user', id: 'u', text: '' }, { kind: 'thought', id: 't', text: 'hm' }, { kind: 'turnEnd', id: 'e', stopReason: 'end_turn' },
      { kind: 'error', id: 'x', message: 'm', actions: [] },
    ];
    for (const item of items) assert.ok(estimateItemHeight(item) > 0, item.kind);
  });
});
