import assert from 'node:assert/strict';
import { CONVERSATION_MESSAGES, parseViewMessage, stampTab, type ViewMessage } from '../../src/common/protocol';

describe('parseViewMessage (webview input is untrusted)', () => {
  it('accepts well-formed messages', () => {
    assert.deepEqual(parseViewMessage({ type: 'prompt/send', tab: 'tab1', text: 'hi' }), { type: 'prompt/send', tab: 'tab1', text: 'hi', mentions: [], images: [] });
    assert.deepEqual(parseViewMessage({ type: 'prompt/send', tab: 'tab1', text: 'see', mentions: ['src/a.ts'], images: [{ mimeType: 'image/png', data: 'iVBORw0K' }] }),
      { type: 'prompt/send', tab: 'tab1', text: 'see', mentions: ['src/a.ts'], images: [{ mimeType: 'image/png', data: 'iVBORw0K' }] });
    assert.deepEqual(parseViewMessage({ type: 'composer/draft', tab: 't1', text: 'half', mentions: ['src/a.ts'], images: [], extra: 1 }), { type: 'composer/draft', tab: 't1', text: 'half', mentions: ['src/a.ts'], images: [] });
    // A draft names the conversation it was typed for (each has its own).
    assert.equal(parseViewMessage({ type: 'composer/draft', text: 'half', mentions: [], images: [] }), undefined);
    assert.deepEqual(parseViewMessage({ type: 'config/set', tab: 'tab2', configId: 'fast', value: true }), { type: 'config/set', tab: 'tab2', configId: 'fast', value: true });
    assert.deepEqual(parseViewMessage({ type: 'location/open', path: '/w/a.ts', line: 3 }), { type: 'location/open', path: '/w/a.ts', line: 3 });
    assert.deepEqual(parseViewMessage({ type: 'write/action', action: 'accept', id: 'r1' }), { type: 'write/action', action: 'accept', id: 'r1' });
    assert.deepEqual(parseViewMessage({ type: 'change/action', action: 'undo', turnId: 't1', path: '/w/a.ts', hunkId: 'b0:c0' }),
      { type: 'change/action', action: 'undo', turnId: 't1', path: '/w/a.ts', hunkId: 'b0:c0' });
    assert.deepEqual(parseViewMessage({ type: 'permission/answer', tab: 'tab2', itemId: 'i3', optionId: 'ok' }), { type: 'permission/answer', tab: 'tab2', itemId: 'i3', optionId: 'ok' });
    assert.deepEqual(parseViewMessage({ type: 'item/action', tab: 'tab1', itemId: 'i1', action: 'restart', extra: 1 }), { type: 'item/action', tab: 'tab1', itemId: 'i1', action: 'restart' });
    assert.deepEqual(parseViewMessage({ type: 'view/ready', tab: 'tab3', key: 'k1' }), { type: 'view/ready', tab: 'tab3', key: 'k1' });
    assert.deepEqual(parseViewMessage({ type: 'view/ready', key: 'k'.repeat(101) }), { type: 'view/ready' }, 'a key too long is no key');
    assert.deepEqual(parseViewMessage({ type: 'view/ready', tab: 3 }), { type: 'view/ready' }, 'a saved state that is not a tab id is no tab');
    assert.deepEqual(parseViewMessage({ type: 'welcome/start', name: 'Claude Code', extra: 1 }), { type: 'welcome/start', name: 'Claude Code' });
    assert.deepEqual(parseViewMessage({ type: 'welcome/action', action: 'trust' }), { type: 'welcome/action', action: 'trust' });
    assert.deepEqual(parseViewMessage({ type: 'child/open', tab: 't1', childId: 'c1', extra: 1 }), { type: 'child/open', tab: 't1', childId: 'c1' });
    assert.equal(parseViewMessage({ type: 'child/open', childId: 3 }), undefined);
  });

  it('refuses a message that acts on a conversation without naming its tab: the host never guesses', () => {
    const samples: ViewMessage[] = [
      { type: 'prompt/send', text: 'hi', mentions: [], images: [] }, { type: 'turn/cancel' }, { type: 'child/cancel', childId: 'c' },
      { type: 'child/open', childId: 'c' }, { type: 'permission/answer', itemId: 'i', optionId: null }, { type: 'question/answer', itemId: 'i', action: 'cancel' },
      { type: 'item/action', itemId: 'i', action: 'retry' }, { type: 'mode/set', modeId: 'm' }, { type: 'config/set', configId: 'c', value: true },
      { type: 'diff/open', itemId: 'i', index: 0 }, { type: 'item/openText', itemId: 'i' }, { type: 'checkpoint/restore', itemId: 'i' },
      { type: 'search/query', query: 'q' }, { type: 'turn/load', turnId: 't' }, { type: 'queue/action', tab: '', id: 'q', action: 'remove' },
    ];
    for (const m of samples) {
      const { tab: _tab, ...bare } = m as ViewMessage & { tab?: string };
      assert.equal(parseViewMessage(bare), undefined, JSON.stringify(bare));
      assert.equal(parseViewMessage({ ...bare, tab: 7 }), undefined, 'a tab that is not a string');
      assert.equal(parseViewMessage(stampTab(bare as ViewMessage, 'tab4'))?.['tab' as never], 'tab4', `${m.type} stamped with the shown tab is taken`);
    }
    assert.ok(samples.every(m => CONVERSATION_MESSAGES.has(m.type)));
    assert.deepEqual(stampTab({ type: 'turn/cancel', tab: 'tab1' }, 'tab2'), { type: 'turn/cancel', tab: 'tab1' }, 'a tab named already is kept');
    assert.deepEqual(stampTab({ type: 'tab/new' }, 'tab2'), { type: 'tab/new' }, 'a message about no conversation is sent as it is');
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
