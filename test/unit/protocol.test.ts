import assert from 'node:assert/strict';
import { parseViewMessage } from '../../src/common/protocol';

describe('parseViewMessage (webview input is untrusted)', () => {
  it('accepts well-formed messages', () => {
    assert.deepEqual(parseViewMessage({ type: 'prompt/send', text: 'hi' }), { type: 'prompt/send', text: 'hi', mentions: [], images: [] });
    assert.deepEqual(parseViewMessage({ type: 'prompt/send', text: 'see', mentions: ['src/a.ts'], images: [{ mimeType: 'image/png', data: 'iVBORw0K' }] }),
      { type: 'prompt/send', text: 'see', mentions: ['src/a.ts'], images: [{ mimeType: 'image/png', data: 'iVBORw0K' }] });
    assert.deepEqual(parseViewMessage({ type: 'composer/draft', text: 'half', mentions: ['src/a.ts'], images: [], extra: 1 }), { type: 'composer/draft', text: 'half', mentions: ['src/a.ts'], images: [] });
    assert.deepEqual(parseViewMessage({ type: 'config/set', configId: 'fast', value: true }), { type: 'config/set', configId: 'fast', value: true });
    assert.deepEqual(parseViewMessage({ type: 'location/open', path: '/w/a.ts', line: 3 }), { type: 'location/open', path: '/w/a.ts', line: 3 });
    assert.deepEqual(parseViewMessage({ type: 'write/action', action: 'accept', id: 'r1' }), { type: 'write/action', action: 'accept', id: 'r1' });
    assert.deepEqual(parseViewMessage({ type: 'change/action', action: 'undo', turnId: 't1', path: '/w/a.ts', hunkId: 'b0:c0' }),
      { type: 'change/action', action: 'undo', turnId: 't1', path: '/w/a.ts', hunkId: 'b0:c0' });
    assert.deepEqual(parseViewMessage({ type: 'permission/answer', itemId: 'i3', optionId: null }), { type: 'permission/answer', tab: undefined, itemId: 'i3', optionId: null });
    assert.deepEqual(parseViewMessage({ type: 'permission/answer', tab: 'tab2', itemId: 'i3', optionId: 'ok' }), { type: 'permission/answer', tab: 'tab2', itemId: 'i3', optionId: 'ok' });
    assert.deepEqual(parseViewMessage({ type: 'item/action', itemId: 'i1', action: 'restart', extra: 1 }), { type: 'item/action', itemId: 'i1', action: 'restart' });
    assert.deepEqual(parseViewMessage({ type: 'welcome/start', name: 'Claude Code', extra: 1 }), { type: 'welcome/start', name: 'Claude Code' });
    assert.deepEqual(parseViewMessage({ type: 'welcome/action', action: 'trust' }), { type: 'welcome/action', action: 'trust' });
    assert.deepEqual(parseViewMessage({ type: 'child/open', tab: 't1', childId: 'c1', extra: 1 }), { type: 'child/open', tab: 't1', childId: 'c1' });
    assert.equal(parseViewMessage({ type: 'child/open', childId: 3 }), undefined);
  });

  it('rejects unknown types, wrong field types and unknown actions', () => {
    for (const bad of [null, 'x', {}, { type: 'eval', code: '1' }, { type: 'prompt/send', text: 5 },
      { type: 'permission/answer', itemId: 'i', optionId: 3 }, { type: 'item/action', itemId: 'i', action: 'rm -rf' },
      { type: 'prompt/send', text: 'x', images: [{ mimeType: 'text/html', data: 'PGI+' }] },
      { type: 'prompt/send', text: 'x', images: [{ mimeType: 'image/png', data: '<script>' }] },
      { type: 'prompt/send', text: 'x', mentions: [42] }, { type: 'composer/draft', text: 'x'.repeat(1_000_001) },
      { type: 'composer/draft', text: 'x', images: [{ mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }] }, { type: 'config/set', configId: 'a', value: { x: 1 } },
      { type: 'location/open', path: '/a', line: -1 }, { type: 'diff/open', itemId: 'i', index: 1.5 },
      { type: 'write/action', action: 'acceptEverything', id: 'r1' }, { type: 'change/action', action: 'keep', turnId: 5 },
      { type: 'welcome/start', name: 7 }, { type: 'welcome/start', name: 'x'.repeat(501) }, { type: 'welcome/action', action: 'workbench.action.terminal.new' }]) {
      assert.equal(parseViewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
