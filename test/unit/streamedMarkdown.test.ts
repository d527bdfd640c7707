import assert from 'node:assert/strict';
import { lastBlockBoundary } from '../../webview/markdown';

describe('lastBlockBoundary (what of a streaming answer can be frozen)', () => {
  it('is 0 while there is no blank line', () => {
    assert.equal(lastBlockBoundary('one paragraph that keeps growing'), 0);
    assert.equal(lastBlockBoundary('line 1\nline 2\n'), 0);
  });

  it('freezes up to the last blank line', () => {
    const text = 'para 1\n\npara 2\n\npara 3 still stream';
    assert.equal(text.slice(0, lastBlockBoundary(text)), 'para 1\n\npara 2\n\n');
  });

  it('closes a fence only with the same kind, at least as long', () => {
    const text = 'a\n\n````md\n```js\nx\n\n```\ny\n\n';
    assert.equal(text.slice(0, lastBlockBoundary(text)), 'a\n\n');
    const closed = text + '````\n\nz';
    assert.equal(closed.slice(0, lastBlockBoundary(closed)), text + '````\n\n');
    const tilde = 'b\n\n~~~\n```\n\n';
    assert.equal(tilde.slice(0, lastBlockBoundary(tilde)), 'b\n\n');
  });

  it('never cuts inside a fenced code block', () => {
    const text = 'intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    assert.equal(text.slice(0, lastBlockBoundary(text)), 'intro\n\n');
    const closed = text + '```\n\nafter';
    assert.equal(closed.slice(0, lastBlockBoundary(closed)), text + '```\n\n');
  });
});

describe('lastBlockBoundary with lists (hostile streaming)', () => {
  it('never cuts a fence indented inside a nested list item at a blank line in it', () => {
    const text = 'Steps:\n\n1. Install\n\n   - nested:\n\n     ```sh\n     npm install\n\n     npm test\n';
    assert.equal(text.slice(0, lastBlockBoundary(text)), 'Steps:\n\n', 'the list holding the open fence stays open');
    const done = text + '     ```\n\n   - after\n\nThe end.';
    assert.equal(done.slice(0, lastBlockBoundary(done)), done.slice(0, done.indexOf('The end.')));
  });

  it('keeps a list item whose number is wide (content indented four spaces) whole', () => {
    const text = 'Intro\n\n10. Run:\n\n    ```\n    a\n\n    b\n';
    assert.equal(text.slice(0, lastBlockBoundary(text)), 'Intro\n\n');
  });
});
