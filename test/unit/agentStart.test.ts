import assert from 'node:assert/strict';
import { isRemembered, launchKey, rememberLaunch, runnerPackage, SLOW_START_MS, startFailureWords, startStatus } from '../../src/common/agentStart';

describe('agentStart', () => {
  it('names the package a runner launch fetches', () => {
    assert.equal(runnerPackage('npx', ['-y', '@agentclientprotocol/claude-agent-acp']), '@agentclientprotocol/claude-agent-acp');
    assert.equal(runnerPackage('/usr/bin/npx', ['--yes', '@google/gemini-cli', '--acp']), '@google/gemini-cli');
    assert.equal(runnerPackage('npx', ['-p', '@scope/pkg', 'run-it']), '@scope/pkg');
    assert.equal(runnerPackage('npx', ['--package=@scope/pkg@2', 'run-it']), '@scope/pkg@2');
    assert.equal(runnerPackage('uvx', ['fast-agent-acp', '-x']), 'fast-agent-acp');
    assert.equal(runnerPackage('uvx', ['--python', '3.12', 'tool']), 'tool');
    assert.equal(runnerPackage('uvx', ['--from', 'git-pkg', 'tool']), 'git-pkg');
    assert.equal(runnerPackage('npm', ['exec', 'cline', '--', '--acp']), 'cline');
    assert.equal(runnerPackage('uv', ['tool', 'run', 'an-agent']), 'an-agent');
    assert.equal(runnerPackage('pnpm', ['dlx', 'x-agent']), 'x-agent');
    assert.equal(runnerPackage('npx.cmd', ['-y', 'cline', '--acp']), 'cline');
    // Not a runner: no download.
    assert.equal(runnerPackage('goose', ['acp']), undefined);
    assert.equal(runnerPackage('npm', ['run', 'agent']), undefined);
    assert.equal(runnerPackage('npx', ['-y']), undefined);
  });

  it('remembers the runner launches that started, bounded, whatever was stored', () => {
    const key = launchKey('/usr/local/bin/npx', ['-y', 'pkg']);
    assert.equal(key, launchKey('npx', ['-y', 'pkg']), 'the same launch wherever npx is');
    assert.notEqual(key, launchKey('npx', ['-y', 'other']));
    assert.equal(isRemembered(undefined, key), false);
    const once = rememberLaunch(undefined, key);
    assert.equal(isRemembered(once, key), true);
    assert.deepEqual(rememberLaunch(once, key), once, 'no duplicate');
    assert.deepEqual(rememberLaunch({ not: 'a list' }, key), [key]);
    assert.deepEqual(rememberLaunch([1, null, 'a'], key), ['a', key]);
    let many: string[] = [];
    for (let i = 0; i < 150; i++) many = rememberLaunch(many, `k${i}`);
    assert.equal(many.length, 100);
    assert.equal(many[0], 'k50', 'the oldest are forgotten first');
  });

  it('says what a start waits for: the download, then the seconds', () => {
    assert.equal(startStatus({ agentName: 'Codex', elapsedMs: 0 }), 'Starting Codex…');
    assert.equal(startStatus({ agentName: 'Codex', elapsedMs: SLOW_START_MS - 1 }), 'Starting Codex…');
    assert.equal(startStatus({ agentName: 'Codex', elapsedMs: 12_400 }), 'Waiting for Codex to answer initialize (12 s)');
    assert.equal(startStatus({ agentName: 'Codex', downloading: '@x/codex-acp', elapsedMs: 10 }), 'Downloading @x/codex-acp (first start)…');
    assert.equal(startStatus({ agentName: 'Codex', downloading: '@x/codex-acp', elapsedMs: 61_000 }), 'Downloading @x/codex-acp (first start, 61 s)…');
  });

  it('tells a failed start in the agent\'s words, never its stack trace', () => {
    const node = "[eval]:1\nthrow new Error('The API key is not set')\n^\n\nError: The API key is not set\n    at [eval]:1:7\n    at runScriptInThisContext (node:internal/vm:209:10)\n    at node:internal/process/execution:118:14\n\nNode.js v24.11.0\n";
    assert.equal(startFailureWords(node), 'Error: The API key is not set');
    const python = 'Traceback (most recent call last):\n  File "/x/agent.py", line 3, in <module>\n    main()\n  File "/x/agent.py", line 2, in main\n    raise ValueError("no model configured")\nValueError: no model configured\n';
    assert.equal(startFailureWords(python), 'ValueError: no model configured');
    const rust = "thread 'main' panicked at src/main.rs:4:5:\nconfig file missing\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
    assert.equal(startFailureWords(rust), "thread 'main' panicked at src/main.rs:4:5:");
    assert.equal(startFailureWords('\x1b[31merror:\x1b[0m unknown flag --acp\n'), 'error: unknown flag --acp');
    const npm = 'npm error code E404\nnpm error 404 Not Found - GET https://registry.example/@x%2fagent - Not found\nnpm error 404\nnpm error 404 Note that you can also search the registry\nnpm error A complete log of this run can be found in: /root/.npm/_logs/2026-01-01T00_00_00_000Z-debug-0.log\n';
    assert.equal(startFailureWords(npm), 'npm error 404 Not Found - GET https://registry.example/@x%2fagent - Not found');
    assert.equal(startFailureWords('starting up\nlistening on stdio\n'), 'listening on stdio', 'no error line: the last line');
    assert.equal(startFailureWords(''), undefined);
    assert.equal(startFailureWords('    at x (y.js:1:1)\n'), undefined);
    assert.equal(startFailureWords(`Error: ${'x'.repeat(1000)}`)?.length, 300);
  });
});
