import assert from 'node:assert/strict';
import {
  afterSignIn, isAuthRequired, keyProblem, parseAuthMethods, parseSecretIndex, redact, redactingLogger, secretIndexKey, secretKey, terminalLogin,
} from '../../src/common/signIn';
import { LineTail } from '../../src/common/lineTail';

describe('signIn', () => {
  it('reads the three kinds of auth method, agent being the default', () => {
    const methods = parseAuthMethods([
      { id: 'a', name: 'Browser', description: 'OAuth' },
      { id: 't', name: 'Log in', type: 'terminal', args: ['--login'], env: { MODE: 'login' } },
      { id: 'k', name: 'API key', type: 'env_var', varName: 'OPENAI_API_KEY', link: 'https://example.com/keys' },
      { id: 'v', name: 'Keys', type: 'env_var', vars: [{ name: 'A_KEY', label: 'Key A' }, { name: 'REGION', secret: false, optional: true }] },
    ]);
    assert.deepEqual(methods, [
      { kind: 'agent', id: 'a', name: 'Browser', description: 'OAuth' },
      { kind: 'terminal', id: 't', name: 'Log in', args: ['--login'], env: { MODE: 'login' } },
      { kind: 'env', id: 'k', name: 'API key', vars: [{ name: 'OPENAI_API_KEY', secret: true, optional: false }], link: 'https://example.com/keys' },
      { kind: 'env', id: 'v', name: 'Keys', vars: [{ name: 'A_KEY', label: 'Key A', secret: true, optional: false }, { name: 'REGION', secret: false, optional: true }] },
    ]);
  });

  it('drops what it cannot use safely: unknown kinds, bad variable names, bad args, duplicates, non-https links', () => {
    const methods = parseAuthMethods([
      null, 'x', { id: '', name: 'no id' }, { id: 'n' },
      { id: 'u', name: 'Future', type: 'oauth_device' },
      { id: 'e1', name: 'Bad var', type: 'env_var', varName: 'PATH=evil' },
      { id: 'e2', name: 'No var', type: 'env_var' },
      { id: 't1', name: 'Bad args', type: 'terminal', args: [1] },
      { id: 't2', name: 'Bad env', type: 'terminal', env: { 'A B': 'x' } },
      { id: 'ok', name: 'First\nline\u0007' }, { id: 'ok', name: 'Duplicate' },
      { id: 'l', name: 'Key', type: 'env_var', varName: 'K', link: 'javascript:alert(1)' },
    ]);
    assert.deepEqual(methods, [
      { kind: 'agent', id: 'ok', name: 'First line' },
      { kind: 'env', id: 'l', name: 'Key', vars: [{ name: 'K', secret: true, optional: false }] },
    ]);
    assert.deepEqual(parseAuthMethods(undefined), []);
    assert.equal(parseAuthMethods(Array.from({ length: 50 }, (_, i) => ({ id: `m${i}`, name: 'M' }))).length, 20);
  });

  it('recognises auth_required by its code only', () => {
    assert.equal(isAuthRequired({ code: -32000, message: 'Authentication required' }), true);
    assert.equal(isAuthRequired({ code: -32603, message: 'Authentication required' }), false);
    assert.equal(isAuthRequired(new Error('Authentication required')), false);
    assert.equal(isAuthRequired(undefined), false);
  });

  it('keeps keys per agent and variable, without collisions, and reads the index defensively', () => {
    assert.notEqual(secretKey('a:b', 'C'), secretKey('a', 'b:C'));
    assert.notEqual(secretIndexKey('a'), secretKey('a', 'X'));
    assert.deepEqual(parseSecretIndex('["K","K","bad name",3]'), ['K']);
    assert.deepEqual(parseSecretIndex('not json'), []);
    assert.deepEqual(parseSecretIndex(undefined), []);
  });

  it('checks an entered key and plans the terminal login from the agent command', () => {
    assert.equal(keyProblem('  '), 'empty');
    assert.equal(keyProblem('a\nb'), 'lineBreak');
    assert.equal(keyProblem('sk-123'), undefined);
    const [t] = parseAuthMethods([{ id: 't', name: 'T', type: 'terminal', args: ['login'], env: { X: '2' } }]);
    assert.ok(t.kind === 'terminal');
    assert.deepEqual(terminalLogin({ command: 'agent', args: ['--acp'], env: { X: '1', Y: '1' } }, t),
      { command: 'agent', args: ['--acp', 'login'], env: { X: '2', Y: '1' } });
    assert.equal(afterSignIn(t), 'restart');
    assert.equal(afterSignIn({ kind: 'agent', id: 'a', name: 'A' }), 'retry');
  });

  it('never writes a key to the log or the stderr tail', () => {
    assert.equal(redact('key=sk-12345 and sk-12345', ['sk-12345', 'ab']), 'key=*** and ***');
    const lines: string[] = [];
    const base = { trace: (m: string) => lines.push(m), info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m), traceEnabled: true };
    const log = redactingLogger(base, ['sk-12345']);
    log.trace('→ sk-12345'); log.info('[agent stderr] using sk-12345'); log.warn('w'); log.error('sk-12345');
    assert.deepEqual(lines, ['→ ***', '[agent stderr] using ***', 'w', '***']);
    assert.equal(log.traceEnabled, true);
    assert.equal(redactingLogger(base, []), base);
    // A key split across two stderr chunks is still redacted in the tail shown with a crash.
    const tail = new LineTail(20, 500, l => redact(l, ['sk-12345']));
    tail.push('using sk-1'); tail.push('2345\nbye');
    assert.equal(tail.text(), 'using ***\nbye');
  });
});
