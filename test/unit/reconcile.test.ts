// The agent wrote a file on disk while its tab had unsaved edits (issue 24, point 1): what the tab
// becomes. Never the agent's text alone while the user's edits cannot be told apart; "merged" only
// when the user's edits are in the result.
import assert from 'node:assert/strict';
import { keepBoth, reconcileBuffer } from '../../src/common/review/reconcile';

const before = 'one\ntwo\nthree\nfour\nfive\n';
const user = (t: string) => t.replace('two\n', "user's unsaved line\n");
const agent = (t: string) => t.replace('four\n', 'FOUR (agent)\n');

describe('reconcileBuffer: a tab with unsaved edits under an agent\'s disk write', () => {
  it('merges the user\'s edit and the agent\'s when it knows the disk before the agent', () => {
    assert.deepEqual(reconcileBuffer(before, user(before), agent(before), 'Codex'), { kind: 'merged', text: user(agent(before)), conflicts: 0 });
  });

  it('never reports "merged" with the agent\'s text alone when the text before is the buffer itself (a baseline taken from the unsaved tab)', () => {
    // diff3 with base = ours returns theirs: the user's line would be gone, "merged" reported anyway.
    assert.deepEqual(reconcileBuffer(user(before), user(before), agent(before), 'Codex'), { kind: 'undecidable' });
  });

  it('cannot merge without the text before the agent\'s change', () => {
    assert.deepEqual(reconcileBuffer(undefined, user(before), agent(before), 'Codex'), { kind: 'undecidable' });
  });

  it('the user and the agent made the same change: merged, nothing of the user\'s is lost', () => {
    assert.deepEqual(reconcileBuffer(before, agent(before), agent(before), 'Codex'), { kind: 'merged', text: agent(before), conflicts: 0 });
  });

  it('an overlap is marked as a conflict holding both versions, CRLF kept', () => {
    const crlf = (t: string) => t.replace(/\n/g, '\r\n');
    assert.deepEqual(reconcileBuffer(crlf(before), crlf(before.replace('three', 'user three')), crlf(before.replace('three', 'agent three')), 'Codex'), {
      kind: 'merged',
      text: crlf("one\ntwo\n<<<<<<< Your unsaved edits\nuser three\n=======\nagent three\n>>>>>>> Codex's change on disk\nfour\nfive\n"),
      conflicts: 1,
    });
  });

  it('the disk\'s side of a conflict can be named for what it is, on one line', () => {
    const got = reconcileBuffer(before, before.replace('three', 'user three'), before.replace('three', 'disk three'), 'Codex', 'The file on disk now\n(moved on)');
    assert.ok(got.kind === 'merged' && got.text.includes('>>>>>>> The file on disk now (moved on)\n') && !got.text.includes('Codex'), JSON.stringify(got));
  });
});

describe('keepBoth: the user chose "Keep both" where their edits could not be told apart', () => {
  it('each place where the tab and the disk differ holds the user\'s lines, then the agent\'s; the rest once', () => {
    assert.equal(keepBoth(user(before), agent(before)), "one\nuser's unsaved line\ntwo\nthree\nfour\nFOUR (agent)\nfive\n");
  });

  it('never glues a last line without an ending to the next one', () => {
    assert.equal(keepBoth('a\nmine', 'a\ntheirs'), 'a\nmine\ntheirs');
  });

  it('the same text on both sides stays as it is', () => {
    assert.equal(keepBoth(before, before), before);
  });
});
