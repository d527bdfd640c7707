import assert from 'node:assert/strict';
import { parseViewMessage } from '../../src/common/protocol';

describe('parseViewMessage (webview input is untrusted)', () => {
  it('accepts well-formed messages', () => {
    assert.deepEqual(parseViewMessage({ type: 'prompt/send', text: 'hi' }), { type: 'prompt/send', text: 'hi' });
    assert.deepEqual(parseViewMessage({ type: 'permission/answer', itemId: 'i3', optionId: null }), { type: 'permission/answer', itemId: 'i3', optionId: null });
    assert.deepEqual(parseViewMessage({ type: 'item/action', itemId: 'i1', action: 'restart', extra: 1 }), { type: 'item/action', itemId: 'i1', action: 'restart' });
  });

  it('rejects unknown types, wrong field types and unknown actions', () => {
    for (const bad of [null, 'x', {}, { type: 'eval', code: '1' }, { type: 'prompt/send', text: 5 },
      { type: 'permission/answer', itemId: 'i', optionId: 3 }, { type: 'item/action', itemId: 'i', action: 'rm -rf' }]) {
      assert.equal(parseViewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
