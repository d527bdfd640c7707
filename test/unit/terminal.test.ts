// The terminal model without VS Code: bounded output at UTF-8 boundaries, the shell decision,
// line ends for the integrated terminal, exit status, the flood-safe mirror queue.
import assert from 'node:assert/strict';
import {
  charStart, commandLine, CrlfNormalizer, describeExit, formatBytes, incompleteTail, MirrorQueue, needsShell, OutputBuffer,
  findProgram, GROUP_LAUNCHER_SCRIPT, parseProcStat, planTerminalSpawn, posixShell, viaGroupLauncher, terminalEnv, terminalName, toExitStatus, toPlainText,
} from '../../src/common/terminal';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe('Terminal OutputBuffer', () => {
  it('keeps everything under the limit, untruncated', () => {
    const b = new OutputBuffer(100);
    b.push(enc('hello '));
    b.push(enc('wörld\n'));
    assert.equal(b.text(true), 'hello wörld\n');
    assert.equal(b.truncated, false);
    assert.equal(b.total, 13);
  });

  it('drops the oldest bytes, and never starts inside a multi-byte character', () => {
    // "é" is 2 bytes, "€" 3, "😀" 4: every cut position must land on a boundary.
    const text = 'aé€😀'.repeat(50);
    const all = enc(text);
    for (let limit = 1; limit < 40; limit++) {
      const b = new OutputBuffer(limit);
      for (let i = 0; i < all.length; i += 7) b.push(all.subarray(i, i + 7));
      const out = b.text(true);
      assert.ok(!out.includes('\uFFFD'), `limit ${limit}: ${JSON.stringify(out)}`);
      assert.ok(text.endsWith(out), `limit ${limit}: suffix`);
      assert.ok(enc(out).length <= limit && enc(out).length >= limit - 3, `limit ${limit}: ${enc(out).length} bytes`);
      assert.equal(b.truncated, true);
    }
  });

  it('holds back an unfinished last character while the command runs, decodes it once it exited', () => {
    const b = new OutputBuffer(100);
    const euro = enc('€');
    b.push(enc('x'));
    b.push(euro.subarray(0, 2));
    assert.equal(b.text(false), 'x');
    assert.equal(b.text(true), 'x\uFFFD');
    b.push(euro.subarray(2));
    assert.equal(b.text(false), 'x€');
  });

  it('a chunk larger than the limit keeps its own last bytes', () => {
    const b = new OutputBuffer(10);
    b.push(enc('abc'));
    b.push(enc('0123456789ABCDEF'));
    assert.equal(b.text(true), '6789ABCDEF');
    assert.equal(b.dropped, 9);
    const z = new OutputBuffer(0);
    z.push(enc('abc'));
    assert.equal(z.text(true), '');
    assert.equal(z.truncated, true);
  });

  it('wraps around correctly for every chunk size', () => {
    const data = enc(Array.from({ length: 2000 }, (_, i) => String.fromCharCode(33 + (i % 90))).join(''));
    for (const limit of [1, 5, 64, 4095, 4096, 4097, 10_000]) {
      for (const step of [1, 3, 100, 1500]) {
        const b = new OutputBuffer(limit);
        for (let i = 0; i < data.length; i += step) b.push(data.subarray(i, i + step));
        assert.deepEqual(b.bytes(), data.subarray(Math.max(0, data.length - limit)), `limit ${limit} step ${step}`);
      }
    }
  });

  it('stays bounded by the limit on a 100 MB stream (its speed: bench/terminal)', () => {
    const limit = 1024 * 1024;
    const b = new OutputBuffer(limit);
    const chunk = enc('0123456789abcdef'.repeat(4096)); // 64 KB, like a pipe read
    for (let i = 0; i < 1600; i++) b.push(chunk);
    assert.equal(b.capacity, limit);
    assert.equal(b.size, limit);
    assert.equal(b.total, 1600 * chunk.length);
    // Tiny writes cost no per-chunk overhead either: they are copied into shared 4 KB blocks.
    const small = new OutputBuffer(4096);
    for (let i = 0; i < 200_000; i++) small.push(enc('y'));
    assert.equal(small.size, 4096);
    assert.ok(small.capacity <= 2 * 4096, `capacity ${small.capacity}`);
  });

  it('keeps exactly the last bytes for seeded mixes of tiny, small, pipe-sized and oversized chunks', () => {
    let seed = 7;
    const rand = (n: number) => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return (seed >>> 8) % n; };
    const sizes = [1, 2, 7, 500, 1023, 1024, 1025, 4095, 4096, 5000, 65536];
    for (const limit of [0, 1, 100, 1023, 4096, 10_000, 70_000]) {
      const b = new OutputBuffer(limit);
      const pushed: Uint8Array[] = [];
      for (let i = 0; i < 400; i++) {
        // Each chunk its own bytes: a counter, then a seeded fill.
        const chunk = new Uint8Array(sizes[rand(sizes.length)]).fill(rand(256));
        chunk[0] = i % 256;
        pushed.push(chunk);
        b.push(chunk);
        if (i % 37 === 0 || i === 399) {
          const all = Buffer.concat(pushed);
          const want = all.subarray(Math.max(0, all.length - limit));
          assert.ok(Buffer.from(b.bytes()).equals(want), `limit ${limit} after ${i + 1} chunks`);
          assert.equal(b.size, want.length);
          assert.equal(b.total, all.length);
          assert.equal(b.dropped, all.length - want.length);
          assert.ok(b.capacity <= limit + 4096, `capacity ${b.capacity} for limit ${limit}`);
        }
      }
    }
  });

  it('grows lazily: a small output does not allocate the whole limit', () => {
    const b = new OutputBuffer(16 * 1024 * 1024);
    b.push(enc('hi\n'));
    assert.ok(b.capacity <= 4096, `capacity ${b.capacity}`);
  });

  it('tail() returns the last bytes at a character boundary', () => {
    const b = new OutputBuffer(1000);
    b.push(enc('line one\nligne deux é\n'));
    assert.equal(b.tail(4), 'x é\n'.slice(-3));
    assert.equal(b.tail(1000), 'line one\nligne deux é\n');
  });

  it('charStart and incompleteTail', () => {
    assert.equal(charStart(enc('€').subarray(1)), 2);
    assert.equal(charStart(enc('abc')), 0);
    assert.equal(incompleteTail(enc('a😀').subarray(0, 3)), 2);
    assert.equal(incompleteTail(enc('a😀')), 0);
    assert.equal(incompleteTail(enc('abc')), 0);
  });
});

describe('Terminal spawn plan', () => {
  const host = (platform: NodeJS.Platform, env: Record<string, string> = {}, files: string[] = []) =>
    ({ platform, env, isFile: (p: string) => files.includes(p) });

  it('runs a shell string (no args) through the user shell, a program with args directly', () => {
    assert.equal(needsShell('echo hi && ls', []), true);
    assert.equal(needsShell('ls', []), false);
    assert.equal(needsShell('npm', ['test']), false);
    assert.equal(needsShell('echo $HOME', []), true);
    assert.deepEqual(planTerminalSpawn('echo hi && ls', [], host('linux', { SHELL: '/bin/bash' }, ['/bin/bash'])),
      { file: '/bin/bash', args: ['-c', 'echo hi && ls'], verbatim: false, shell: '/bin/bash' });
    assert.deepEqual(planTerminalSpawn('git', ['log', '-1'], host('linux')), { file: 'git', args: ['log', '-1'], verbatim: false });
  });

  it('falls back to /bin/sh when $SHELL does not take POSIX syntax', () => {
    assert.equal(posixShell(host('linux', { SHELL: '/usr/bin/fish' }, ['/usr/bin/fish'])), '/bin/sh');
    assert.equal(posixShell(host('darwin', { SHELL: '/bin/zsh' }, ['/bin/zsh'])), '/bin/zsh');
    assert.equal(posixShell(host('linux', {})), '/bin/sh');
    assert.equal(posixShell(host('linux', { SHELL: '/bin/zsh' }, [])), '/bin/sh');
  });

  it('on Windows, a shell string goes through ComSpec /d /s /c, and .cmd shims are resolved', () => {
    const env = { ComSpec: 'C:\\Windows\\system32\\cmd.exe', PATH: 'C:\\node', PATHEXT: '.EXE;.CMD' };
    assert.deepEqual(planTerminalSpawn('echo hi && dir', [], host('win32', env)),
      { file: env.ComSpec, args: ['/d', '/s', '/c', '"echo hi && dir"'], verbatim: true, shell: env.ComSpec });
    const npm = planTerminalSpawn('npm', ['test'], host('win32', env, ['C:\\node\\npm.cmd']));
    assert.equal(npm.file, env.ComSpec);
    assert.equal(npm.verbatim, true);
  });

  it('names the terminal after the agent and the command', () => {
    assert.equal(terminalName('Claude Code', 'npm test'), 'Claude Code: npm test');
    assert.equal(terminalName('A', 'x'.repeat(100), 10), 'A: xxxxxxxxx…');
    assert.equal(commandLine('grep', ['-r', 'two words', "it's"]), `grep -r 'two words' 'it'\\''s'`);
    assert.equal(commandLine('echo hi && ls', []), 'echo hi && ls');
  });

  it('env: the host environment minus VS Code internals, the agent variables on top', () => {
    const env = terminalEnv({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1', VSCODE_IPC_HOOK_CLI: 'x', HOME: '/h' }, [{ name: 'FOO', value: 'bar' }, { name: 'HOME', value: '/other' }], 'linux');
    assert.deepEqual(env, { PATH: '/bin', HOME: '/other', FOO: 'bar', SHLVL: '1' });
    const win = terminalEnv({ Path: 'C:\\' }, [{ name: 'PATH', value: 'D:\\' }], 'win32');
    assert.deepEqual(win, { PATH: 'D:\\' });
  });

  it('env: SHLVL is at least 1 (bash, its stdin a socket, runs ~/.bashrc when outermost), whoever set it lower', () => {
    const shlvl = (base: string | undefined, agent?: string) =>
      terminalEnv({ SHLVL: base }, agent === undefined ? [] : [{ name: 'SHLVL', value: agent }], 'linux').SHLVL;
    assert.deepEqual([shlvl(undefined), shlvl('0'), shlvl('-2'), shlvl('x'), shlvl('1'), shlvl('3'), shlvl('4', '0'), shlvl('1', '5')], ['1', '1', '1', '1', '1', '3', '1', '5']);
  });
});

describe('Terminal line ends, exit status, plain text', () => {
  it('converts \\n to \\r\\n without doubling \\r\\n, even split across chunks', () => {
    const n = new CrlfNormalizer();
    assert.equal(n.convert('a\nb\r\nc\n\n'), 'a\r\nb\r\nc\r\n\r\n');
    assert.equal(n.convert('x\r'), 'x\r');
    assert.equal(n.convert('\ny'), '\ny');
    assert.equal(n.convert('\n'), '\r\n');
    assert.equal(n.convert('\x1b[31mred\x1b[0m\n'), '\x1b[31mred\x1b[0m\r\n');
  });

  it('maps exit codes and signals', () => {
    assert.deepEqual(toExitStatus(0, null), { exitCode: 0, signal: null });
    assert.deepEqual(toExitStatus(null, 'SIGTERM'), { exitCode: null, signal: 'SIGTERM' });
    assert.deepEqual(toExitStatus(-1073741819, null), { exitCode: 3221225477, signal: null });
    assert.equal(describeExit({ exitCode: 2, signal: null }, false), 'process exited with code 2');
    assert.equal(describeExit({ exitCode: null, signal: 'SIGKILL' }, true), 'process killed (SIGKILL)');
    assert.equal(describeExit({ exitCode: null, signal: 'SIGINT' }, false), 'process terminated by SIGINT');
  });

  it('plain text strips escapes and keeps what a carriage return leaves', () => {
    assert.equal(toPlainText('\x1b[1;32mok\x1b[0m\r\nprogress 10%\rprogress 99%\n\x1b]0;title\x07done'), 'ok\nprogress 99%\ndone');
  });

  it('parses /proc stat lines, command names with spaces and parentheses included', () => {
    assert.deepEqual(parseProcStat('123 (my (odd) cmd) Z 1 77 77 0 -1'), { pid: 123, state: 'Z', ppid: 1, pgrp: 77, session: 77 });
  });
});

describe('Terminal program lookup and process-group launcher', () => {
  const files: Record<string, 'ok' | 'notExecutable'> = { '/usr/bin/git': 'ok', '/opt/x/tool': 'notExecutable', '/bin/tool': 'ok', '/work/run.sh': 'ok', '/work/bin/t': 'ok' };
  const check = (p: string) => files[p] ?? 'missing';

  it('finds a program as exec does: PATH in order, skipping what cannot run and relative entries; a slash means a path', () => {
    const on = (PATH: string | undefined) => ({ platform: 'linux' as const, env: { PATH } });
    assert.deepEqual(findProgram('git', on('/usr/local/bin:/usr/bin'), '/work', check), { found: '/usr/bin/git' });
    assert.deepEqual(findProgram('tool', on('/opt/x:/bin'), '/work', check), { found: '/bin/tool' });
    assert.deepEqual(findProgram('tool', on('/opt/x'), '/work', check), { problem: 'notExecutable' });
    assert.deepEqual(findProgram('nope', on('/usr/bin'), '/work', check), { problem: 'notFound' });
    assert.deepEqual(findProgram('./run.sh', on('/usr/bin'), '/work', check), { found: '/work/run.sh' });
    assert.deepEqual(findProgram('bin/t', on('/usr/bin'), '/work/', check), { found: '/work/bin/t' });
    assert.deepEqual(findProgram('run.sh', on(':.:/usr/bin'), '/work', check), { problem: 'notFound' }, 'relative PATH entries (the workspace) are not searched');
  });

  it('runs the command through the launcher with PERL* variables moved aside (restored by the launcher)', () => {
    const { plan, env } = viaGroupLauncher({ file: 'git', args: ['log', '-1'], verbatim: false }, '/usr/bin/perl',
      { PATH: '/bin', PERL5OPT: '-d', PERLLIB: '/x', SWITCHBOARD_PERLENV_PATH: '/evil' });
    assert.deepEqual(plan, { file: '/usr/bin/perl', args: ['-e', GROUP_LAUNCHER_SCRIPT, '--', 'git', 'log', '-1'], verbatim: false });
    assert.deepEqual(env, { PATH: '/bin', SWITCHBOARD_PERLENV_PERL5OPT: '-d', SWITCHBOARD_PERLENV_PERLLIB: '/x', PERL_BADLANG: '0' });
  });
});

describe('Terminal MirrorQueue', () => {
  it('passes everything through when the renderer keeps up', () => {
    const q = new MirrorQueue(100);
    q.push(enc('ab'));
    q.push(enc('cd'));
    const b = q.take()!;
    assert.equal(dec(b.data), 'abcd');
    assert.equal(b.skipped, 0);
    assert.equal(q.take(), undefined);
  });

  it('skips the oldest of a flood and resumes at a line start', () => {
    const q = new MirrorQueue(20);
    for (let i = 0; i < 100; i++) q.push(enc(`line ${i}\n`));
    const b = q.take()!;
    assert.ok(b.skipped > 0);
    assert.match(dec(b.data), /^line \d+\n(line \d+\n)*$/);
    assert.ok(q.pending === 0);
    const big = new MirrorQueue(8);
    big.push(enc('€'.repeat(10)));
    const c = big.take()!;
    assert.ok(!dec(c.data).includes('\uFFFD'), dec(c.data));
    assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MB');
  });

  it('a glimpse: only the last bytes asked for, the rest counted as skipped, from a line start', () => {
    const q = new MirrorQueue(1000);
    for (let i = 0; i < 50; i++) q.push(enc(`line ${String(i).padStart(2, '0')}\n`)); // 8 bytes each
    const b = q.take(20)!;
    assert.equal(dec(b.data), 'line 48\nline 49\n');
    assert.equal(b.skipped, 50 * 8 - 16);
    assert.equal(q.take(20), undefined);
    q.push(enc('short\n'));
    assert.deepEqual({ text: dec(q.take(20)!.data), skipped: 0 }, { text: 'short\n', skipped: 0 });
  });
});
