import assert from 'node:assert/strict';
import { saveDelay } from '../../src/session/savedChats';

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
