import assert from 'node:assert/strict';
import { AGENT_PRESETS, pickDefaultAgent, resolveAgents } from '../../src/common/agentConfig';

describe('agentConfig', () => {
  it('offers every preset when the user configured nothing', () => {
    const { agents, problems } = resolveAgents(undefined);
    assert.deepEqual(agents.map(a => a.name), Object.keys(AGENT_PRESETS));
    assert.deepEqual(problems, []);
    const gemini = agents.find(a => a.name === 'Gemini CLI')!;
    assert.equal(gemini.command, 'npx');
    assert.ok(gemini.args.includes('--acp'));
  });

  it("accepts Zed's agent_servers shape, ignoring its extra keys", () => {
    const zed = { 'My Agent': { type: 'custom', command: '/usr/bin/my-agent', args: ['--acp'], env: { TOKEN: 'x' }, default_mode: 'plan' } };
    const spec = resolveAgents(zed).agents.find(a => a.name === 'My Agent')!;
    assert.deepEqual({ command: spec.command, args: spec.args, env: spec.env, preset: spec.preset },
      { command: '/usr/bin/my-agent', args: ['--acp'], env: { TOKEN: 'x' }, preset: false });
  });

  it('lets a user entry replace a preset and null hide one', () => {
    const { agents } = resolveAgents({ Goose: { command: 'goose-dev', args: ['acp'] }, Kimi: null });
    assert.equal(agents.find(a => a.name === 'Goose')!.command, 'goose-dev');
    assert.equal(agents.find(a => a.name === 'Kimi'), undefined);
  });

  it('accepts env as [{name, value}]', () => {
    const spec = resolveAgents({ A: { command: 'a', env: [{ name: 'K', value: 'v' }] } }).agents.find(a => a.name === 'A')!;
    assert.deepEqual(spec.env, { K: 'v' });
  });

  it('reports each bad entry by name and keeps the good ones', () => {
    const { agents, problems } = resolveAgents({
      NoCommand: { args: [] }, BadArgs: { command: 'x', args: 'oops' }, BadEnv: { command: 'x', env: { K: 1 } }, Good: { command: 'ok' },
    });
    assert.deepEqual(problems, [
      '"NoCommand": "command" must be a non-empty string',
      '"BadArgs": "args" must be an array of strings',
      '"BadEnv": "env.K" must be a string',
    ]);
    assert.ok(agents.some(a => a.name === 'Good'));
    assert.ok(!agents.some(a => a.name === 'NoCommand'));
  });

  it('rejects a non-object setting with a readable message', () => {
    assert.match(resolveAgents(['x']).problems[0], /must be an object/);
  });

  it('picks the default agent only when it exists', () => {
    const { agents } = resolveAgents({ Mine: { command: 'm' } });
    assert.equal(pickDefaultAgent(agents, 'Mine')?.command, 'm');
    assert.equal(pickDefaultAgent(agents, 'Missing'), undefined);
    assert.equal(pickDefaultAgent(agents, ''), undefined);
  });
});
