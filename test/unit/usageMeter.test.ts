import assert from 'node:assert/strict';
import { usageMeter } from '../../webview/usageMeter';

describe('the context meter (webview/usageMeter.ts)', () => {
  it('shows tokens used of the context window in short numbers, and in full in its tooltip', () => {
    assert.deepEqual(usageMeter({ used: 45_300, size: 200_000 }, 'en'),
      { text: '45k / 200k', title: 'Context: 45,300 of 200,000 tokens (23%)', percent: 23 });
    assert.equal(usageMeter({ used: 1_250_000, size: 2_000_000 }, 'en').text, '1.3M / 2.0M');
    assert.equal(usageMeter({ used: 512, size: 900 }, 'en').text, '512 / 900');
  });

  it('never passes 100% and is 0% when the window size is unknown', () => {
    assert.equal(usageMeter({ used: 250_000, size: 200_000 }, 'en').percent, 100);
    assert.deepEqual(usageMeter({ used: 1000, size: 0, cost: { amount: 0.5, currency: 'USD' } }, 'en'),
      { text: '0.50 USD', title: 'Cost: 0.50 USD', percent: 0 });
  });

  it("keeps the helpers' tokens apart from the conversation's own context, the cost after both", () => {
    const meter = usageMeter({ used: 10_000, size: 100_000, helpers: { tokens: 3_400, count: 2 }, cost: { amount: 1.234, currency: 'EUR' } }, 'de');
    assert.equal(meter.text, '10k / 100k · +3k helpers · 1.23 EUR');
    assert.equal(meter.title, 'Context: 10.000 of 100.000 tokens (10%)\nHelpers: 3.400 tokens in 2 helper sessions\nCost: 1.23 EUR');
  });
});
