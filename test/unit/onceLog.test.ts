import assert from 'node:assert/strict';
import { describeThrown, isolated, OnceLog } from '../../src/common/onceLog';

describe('OnceLog', () => {
  it('logs each kind once and counts the rest', () => {
    const log = new OnceLog();
    assert.deepEqual(log.note('a'), { kind: 'a', count: 1 });
    assert.equal(log.note('a'), undefined);
    assert.deepEqual(log.note('b'), { kind: 'b', count: 1 });
    for (let i = 0; i < 1000; i++) log.note('a');
    assert.deepEqual(log.summary(), [{ kind: 'a', count: 1002 }, { kind: 'b', count: 1 }]);
  });

  it('bounds the kinds and their length: an agent naming new kinds cannot flood the log', () => {
    const log = new OnceLog(3, 10);
    const logged = Array.from({ length: 100 }, (_, i) => log.note(`kind ${i} ${'x'.repeat(50)}`)).filter(Boolean);
    assert.equal(logged.length, 4);
    assert.equal(logged[3], 'full');
    assert.deepEqual(logged[0], { kind: 'kind 0 xxx…', count: 1 });
  });
});

describe('isolated', () => {
  it('hands an exception to onError and returns normally', () => {
    const errors: string[] = [];
    const calls: number[] = [];
    const f = isolated((n: number) => { calls.push(n); if (n === 2) throw new URIError('URI malformed'); }, e => errors.push(describeThrown(e)));
    [1, 2, 3].forEach(n => f(n));
    assert.deepEqual(calls, [1, 2, 3]);
    assert.deepEqual(errors, ['URIError: URI malformed']);
  });
});
