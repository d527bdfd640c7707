import assert from 'node:assert/strict';
import { examplePrompts, needsSignIn, welcomeSituation } from '../../src/common/welcome';

describe('welcome', () => {
  it('names the situation: no agent starts in an untrusted workspace or without a folder', () => {
    assert.equal(welcomeSituation({ trusted: true, hasFolder: true }), 'ready');
    assert.equal(welcomeSituation({ trusted: true, hasFolder: false }), 'noFolder');
    assert.equal(welcomeSituation({ trusted: false, hasFolder: true }), 'untrusted');
    assert.equal(welcomeSituation({ trusted: false, hasFolder: false }), 'untrusted');
  });

  it('offers two or three prompts that fit what is at the workspace root', () => {
    assert.deepEqual(examplePrompts(['README.md', 'package.json', 'src', 'test']),
      ['Summarize this repository', 'Explain how this project is built and tested', 'Which parts of the code have no tests?']);
    assert.deepEqual(examplePrompts(['Cargo.toml', 'src']), ['Explain how this project is built and tested', 'Where should a newcomer start reading the code?']);
    assert.deepEqual(examplePrompts(['readme', 'notes.txt']), ['Summarize this repository', 'What is in this folder?']);
    assert.deepEqual(examplePrompts(['App.csproj']), ['Explain how this project is built and tested', 'What is in this folder?']);
    assert.deepEqual(examplePrompts([]), ['Create a README that explains what this folder is for', 'What is in this folder?']);
    assert.deepEqual(examplePrompts(['.git', '.vscode']), ['Create a README that explains what this folder is for', 'What is in this folder?']);
    assert.deepEqual(examplePrompts(['a.txt', 'b.txt']), ['What is in this folder?', 'Find a small bug and propose a fix']);
    for (const names of [['README.md', 'package.json', 'src', 'tests', 'lib'], [], ['x']]) {
      const n = examplePrompts(names).length;
      assert.ok(n >= 2 && n <= 3, `${n} prompts for ${names}`);
    }
  });

  it('marks a known agent that needs a sign-in, unless a key, a variable or its credentials file is there', async () => {
    const none = { env: {}, hasFile: async () => false, storedKeys: false };
    assert.equal(await needsSignIn('Claude Code', none), true);
    assert.equal(await needsSignIn('Claude Code', { ...none, env: { ANTHROPIC_API_KEY: 'sk-1' } }), false);
    assert.equal(await needsSignIn('Claude Code', { ...none, env: { ANTHROPIC_API_KEY: '  ' } }), true, 'an empty variable is no key');
    assert.equal(await needsSignIn('Claude Code', { ...none, storedKeys: true }), false, 'a key stored by Switchboard');
    const seen: string[] = [];
    assert.equal(await needsSignIn('Codex', { ...none, hasFile: async f => { seen.push(f); return f === '.codex/auth.json'; } }), false);
    assert.deepEqual(seen, ['.codex/auth.json']);
    assert.equal(await needsSignIn('Gemini CLI', { ...none, hasFile: async () => { throw new Error('EACCES'); } }), true, 'an unreadable folder is no sign-in');
    // Nothing known: not marked.
    assert.equal(await needsSignIn('Goose', none), false);
    assert.equal(await needsSignIn('My agent', none), false);
    assert.equal(await needsSignIn('constructor', none), false);
  });
});
