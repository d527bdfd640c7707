import assert from 'node:assert/strict';
import { planSpawn, quoteForCmd, readNpmShim } from '../../src/common/spawnPlan';

const files = (...paths: string[]) => (p: string) => paths.map(x => x.toLowerCase()).includes(p.toLowerCase());

// What npm's cmd-shim writes for a package bin with `#!/usr/bin/env node` (the current template),
// for one without a `#!` line (a native executable), and the older template without `endLocal & …`.
const NODE_SHIM = (target: string, progArgs = '') => [
  '@ECHO off', 'GOTO start', ':find_dp0', 'SET dp0=%~dp0', 'EXIT /b', ':start', 'SETLOCAL', 'CALL :find_dp0', '',
  'IF EXIST "%dp0%\\node.exe" (', '  SET "_prog=%dp0%\\node.exe"', ') ELSE (', '  SET "_prog=node"', '  SET PATHEXT=%PATHEXT:;.JS;=;%', ')', '',
  `endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%" ${progArgs} "%dp0%\\${target}" %*`, '',
].join('\r\n');
const EXE_SHIM = (target: string) => ['@ECHO off', 'GOTO start', ':find_dp0', 'SET dp0=%~dp0', 'EXIT /b', ':start', 'SETLOCAL', 'CALL :find_dp0', `"%dp0%\\${target}"   %*`, ''].join('\r\n');
const OLDER_NODE_SHIM = (target: string) => [
  '@ECHO off', 'SETLOCAL', 'CALL :find_dp0', '', 'IF EXIST "%dp0%\\node.exe" (', '  SET "_prog=%dp0%\\node.exe"', ') ELSE (', '  SET "_prog=node"',
  '  SET PATHEXT=%PATHEXT:;.JS;=;%', ')', '', `"%_prog%"  "%dp0%\\${target}" %*`, 'ENDLOCAL', 'EXIT /b %errorlevel%', ':find_dp0', 'SET dp0=%~dp0', 'EXIT /b', '',
].join('\r\n');

const NPM = 'C:\\Users\\me\\AppData\\Roaming\\npm';
const NODEJS = 'C:\\Program Files\\nodejs';
const win = (existing: string[], texts: Record<string, string> = {}, env: Record<string, string> = {}) => ({
  platform: 'win32' as const,
  env: { Path: `C:\\Windows\\system32;${NODEJS};${NPM}`, PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.JS', ComSpec: 'C:\\Windows\\system32\\cmd.exe', SystemRoot: 'C:\\Windows', ...env },
  isFile: files(...existing, ...Object.keys(texts)),
  readText: (p: string) => Object.entries(texts).find(([k]) => k.toLowerCase() === p.toLowerCase())?.[1],
});

describe('spawnPlan', () => {
  describe('POSIX (Linux and macOS)', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      it(`${platform}: spawns the command directly with its exact argv, no shell`, () => {
        const plan = planSpawn('npx', ['-y', 'pkg', 'a b;$(x)'], { platform, env: { PATH: '/usr/bin' }, isFile: () => true });
        assert.deepEqual(plan, { file: 'npx', args: ['-y', 'pkg', 'a b;$(x)'], verbatim: false });
      });
    }
  });

  describe('Windows', () => {
    it('runs a .cmd that is not an npm shim (npx.cmd) through cmd.exe /d /s /c, arguments escaped for the batch file too', () => {
      const npxCmd = `${NODEJS}\\npx.cmd`;
      const plan = planSpawn('npx', ['-y', '@scope/agent', 'a b&c'], win([], { [npxCmd]: '@ECHO OFF\r\nSETLOCAL\r\nSET "NODE_EXE=%~dp0\\node.exe"\r\n"%NODE_EXE%" "%NPX_CLI_JS%" %*\r\n' }));
      assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
      assert.equal(plan.verbatim, true);
      assert.deepEqual(plan.args.slice(0, 3), ['/d', '/s', '/c']);
      assert.equal(plan.args[3], `""${npxCmd}" ^^^"-y^^^" ^^^"@scope/agent^^^" ^^^"a b^^^&c^^^""`);
    });

    it('runs a standard npm shim as node + its script, without cmd.exe (node found on PATH)', () => {
      const shim = `${NPM}\\claude-agent-acp.cmd`;
      const plan = planSpawn('claude-agent-acp', ['--flag', 'a "b"'], win([`${NODEJS}\\node.exe`], { [shim]: NODE_SHIM('node_modules\\@agentclientprotocol\\claude-agent-acp\\dist\\index.js') }));
      assert.deepEqual(plan, {
        file: `${NODEJS}\\node.exe`,
        args: [`${NPM}\\node_modules\\@agentclientprotocol\\claude-agent-acp\\dist\\index.js`, '--flag', 'a "b"'],
        verbatim: false,
      });
    });

    it('prefers the node.exe beside the shim, keeps the #! arguments, and reads the older template', () => {
      const shim = `${NPM}\\gemini.cmd`;
      const beside = `${NPM}\\node.exe`;
      const plan = planSpawn('gemini', ['--acp'], win([beside, `${NODEJS}\\node.exe`], { [shim]: NODE_SHIM('node_modules\\@google\\gemini-cli\\dist\\index.js', '--no-warnings=DEP0040') }));
      assert.deepEqual(plan.file, beside);
      assert.deepEqual(plan.args, ['--no-warnings=DEP0040', `${NPM}\\node_modules\\@google\\gemini-cli\\dist\\index.js`, '--acp']);
      const older = planSpawn('gemini', ['--acp'], win([`${NODEJS}\\node.exe`], { [shim]: OLDER_NODE_SHIM('node_modules\\@google\\gemini-cli\\dist\\index.js') }));
      assert.deepEqual(older, { file: `${NODEJS}\\node.exe`, args: [`${NPM}\\node_modules\\@google\\gemini-cli\\dist\\index.js`, '--acp'], verbatim: false });
    });

    it('runs the native .exe an npm shim wraps directly', () => {
      const shim = `${NPM}\\node_modules\\.bin\\codex-acp.cmd`;
      const exe = `${NPM}\\node_modules\\@zed-industries\\codex-acp-win32-x64\\bin\\codex-acp.exe`;
      const plan = planSpawn(shim, ['-c', 'x=1'], win([exe], { [shim]: EXE_SHIM('..\\@zed-industries\\codex-acp-win32-x64\\bin\\codex-acp.exe') }));
      assert.deepEqual(plan, { file: exe, args: ['-c', 'x=1'], verbatim: false });
    });

    it('names node as what is missing when an npm shim needs it and none is installed', () => {
      const shim = `${NPM}\\codex-acp.cmd`;
      const plan = planSpawn('codex-acp', [], win([], { [shim]: NODE_SHIM('node_modules\\@zed-industries\\codex-acp\\bin\\codex-acp.js') }));
      assert.equal(plan.needs, 'node');
      assert.equal(plan.file, 'node');
    });

    it('never takes a node.js or node.cmd for the shim\'s node: such a shim runs through cmd.exe', () => {
      const shim = `${NPM}\\qwen.cmd`;
      const plan = planSpawn('qwen', [], win([`${NODEJS}\\node.cmd`, `${NODEJS}\\node.js`], { [shim]: NODE_SHIM('node_modules\\q\\cli.js') }));
      assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
    });

    it('runs a shim it cannot read (or an unreadable file) through cmd.exe', () => {
      const shim = `${NPM}\\x.cmd`;
      assert.equal(planSpawn('x', [], win([shim])).file, 'C:\\Windows\\system32\\cmd.exe');
    });

    it('runs a .ps1 found on PATH (after PATHEXT) through powershell without profile', () => {
      const ps1 = `${NPM}\\kimi.ps1`;
      const plan = planSpawn('kimi', ['acp'], win([ps1, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe']));
      assert.deepEqual(plan, {
        file: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', ps1, 'acp'],
        verbatim: false,
      });
      // A .cmd beside it wins (PATHEXT comes first).
      const both = planSpawn('kimi', ['acp'], win([ps1], { [`${NPM}\\kimi.cmd`]: 'echo hi' }));
      assert.equal(both.file, 'C:\\Windows\\system32\\cmd.exe');
    });

    it('runs a Windows .exe directly, resolved through PATHEXT', () => {
      const plan = planSpawn('goose', ['acp'], { platform: 'win32', env: { PATH: 'C:\\bin', PATHEXT: '.EXE;.CMD' }, isFile: files('C:\\bin\\goose.exe') });
      assert.deepEqual(plan, { file: 'C:\\bin\\goose.exe', args: ['acp'], verbatim: false });
    });

    it('leaves an unknown Windows command to spawn, which reports it as not found', () => {
      const plan = planSpawn('nope', [], { platform: 'win32', env: { PATH: 'C:\\bin' }, isFile: () => false });
      assert.equal(plan.file, 'nope');
    });

    it('quotes embedded quotes and trailing backslashes for the C runtime', () => {
      assert.equal(quoteForCmd('say "hi"'), '^"say \\^"hi\\^"^"');
      assert.equal(quoteForCmd('C:\\dir\\'), '^"C:\\dir\\\\^"');
      assert.equal(quoteForCmd('50%', true), '^^^"50^^^%^^^"');
    });
  });

  describe('readNpmShim', () => {
    it('reads the node template, the native template and the older template', () => {
      assert.deepEqual(readNpmShim(NODE_SHIM('node_modules\\a\\cli.js')), { target: 'node_modules\\a\\cli.js', program: 'node', programArgs: [] });
      assert.deepEqual(readNpmShim(NODE_SHIM('node_modules\\a\\cli.js', '--x --y')), { target: 'node_modules\\a\\cli.js', program: 'node', programArgs: ['--x', '--y'] });
      assert.deepEqual(readNpmShim(EXE_SHIM('node_modules\\a\\a.exe')), { target: 'node_modules\\a\\a.exe', programArgs: [] });
      assert.deepEqual(readNpmShim(OLDER_NODE_SHIM('node_modules\\a\\cli.js').replace(/\r\n/g, '\n')), { target: 'node_modules\\a\\cli.js', program: 'node', programArgs: [] });
    });

    it('refuses anything else: extra lines, variables, pnpm shims, a script that is no .exe, two runs', () => {
      const withVar = NODE_SHIM('a.js').replace('CALL :find_dp0', 'CALL :find_dp0\r\n@SET NODE_OPTIONS=--x');
      assert.equal(readNpmShim(withVar), undefined);
      assert.equal(readNpmShim('@SETLOCAL\r\n@IF NOT DEFINED NODE_PATH (\r\n  @SET "NODE_PATH=C:\\x"\r\n)\r\n"%~dp0\\node.exe" "%~dp0\\..\\x\\cli.js" %*\r\n'), undefined);
      assert.equal(readNpmShim(EXE_SHIM('node_modules\\a\\run.bat')), undefined);
      assert.equal(readNpmShim(NODE_SHIM('a.js') + '"%dp0%\\b.exe" %*\r\n'), undefined);
      assert.equal(readNpmShim(NODE_SHIM('a.js').replace('SET "_prog=node"', 'SET "_prog=bun"')), undefined);
      assert.equal(readNpmShim(NODE_SHIM('a.js', '& calc')), undefined);
      assert.equal(readNpmShim('@echo off\r\nnode x.js %*\r\n'), undefined);
    });
  });
});
