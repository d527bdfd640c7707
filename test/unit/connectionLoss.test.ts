import assert from 'node:assert/strict';
import { runsRegistryPackage } from '../../src/common/agentConfig';
import { describeAgentEnd, describeConnectionLoss } from '../../src/common/connectionLoss';

describe('connection loss and agent launch', () => {
  it('names a message over the size limit, a closed output, a closed input, and any other stream error', () => {
    const tooLarge = Object.assign(new Error('Incoming ACP data exceeds the configured 33554432 byte limit'), { name: 'MessageTooLargeError', maxMessageBytes: 33554432 });
    assert.deepEqual(describeConnectionLoss(tooLarge), { kind: 'limit', message: 'the agent sent a message larger than the 32 MiB limit of the connection' });
    assert.equal(describeConnectionLoss(new Error('ACP connection closed')).kind, 'eof');
    assert.equal(describeConnectionLoss(undefined).kind, 'eof');
    assert.deepEqual(describeConnectionLoss(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
      { kind: 'stdin', message: 'the agent closed its input (stdin) but kept running' });
    assert.deepEqual(describeConnectionLoss(new TypeError('boom')), { kind: 'error', message: 'the connection failed (boom)' });
  });

  it('tells how an agent ended, a broken connection first', () => {
    assert.equal(describeAgentEnd('Codex', { code: null, signal: 'SIGTERM', failure: 'x happened' }), 'Codex lost its connection: x happened. Switchboard stopped it.');
    assert.equal(describeAgentEnd('Codex', { code: 1, signal: null }), 'Codex crashed (exit code 1).');
    assert.equal(describeAgentEnd('Codex', { code: 0, signal: null }), 'Codex exited.');
    assert.equal(describeAgentEnd('Codex', { code: null, signal: 'SIGKILL' }), 'Codex was killed by SIGKILL.');
  });

  it('recognises package runners (started from a neutral folder) and nothing else', () => {
    for (const [command, args] of [
      ['npx', ['-y', '@agentclientprotocol/claude-agent-acp']], ['/usr/local/bin/npx', ['x']], ['C:\\nodejs\\npx.cmd', ['x']],
      ['uvx', ['fast-agent-acp']], ['bunx', ['x']], ['pnpm', ['dlx', 'x']], ['npm', ['exec', 'x']], ['yarn', ['dlx', 'x']],
    ] as const) assert.equal(runsRegistryPackage(command, args), true, `${command} ${args.join(' ')}`);
    for (const [command, args] of [
      ['node', ['agent.js']], ['opencode', ['acp']], ['pnpm', ['exec', 'x']], ['npm', ['run', 'agent']], ['npxx', []],
    ] as const) assert.equal(runsRegistryPackage(command, args), false, `${command} ${args.join(' ')}`);
  });
});
