// How an agent's `terminal/create` is run. An agent either names a program and its arguments, or
// (Claude's adapter) puts a whole shell string in `command` with no `args` ("echo hi && ls"): that
// runs through the user's shell (`$SHELL -c`, or `/bin/sh -c` when $SHELL is not a POSIX-family
// shell that understands the bash-like syntax agents write), on Windows through `%ComSpec% /d /s /c`.
// A program with arguments is spawned directly (exact argv), with Windows `.cmd` shims resolved by
// the same plan as the agent process.
import { posix } from 'node:path';
import { commandCandidates, LookupEnv } from '../commandLookup';
import { planSpawn, PlatformView, SpawnPlan } from '../spawnPlan';

export interface TerminalSpawnPlan extends SpawnPlan {
  /** The shell used, when the command is a shell string. */
  readonly shell?: string;
}

// Whitespace or any character a shell gives meaning to.
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]{}~#!%=^]/;

/** True when `command` must be interpreted by a shell: no args, and it is not a bare program name. */
export function needsShell(command: string, args: readonly string[]): boolean {
  return args.length === 0 && SHELL_SYNTAX.test(command);
}

const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash']);

/** The user's shell if it understands POSIX `-c` strings, else /bin/sh. */
export function posixShell(host: PlatformView): string {
  const shell = host.env.SHELL;
  if (shell && shell.startsWith('/') && POSIX_SHELLS.has(shell.slice(shell.lastIndexOf('/') + 1)) && host.isFile(shell)) return shell;
  return '/bin/sh';
}

export function planTerminalSpawn(command: string, args: readonly string[], host: PlatformView): TerminalSpawnPlan {
  if (!needsShell(command, args)) return planSpawn(command, args, host);
  if (host.platform === 'win32') {
    const comspec = host.env.ComSpec ?? host.env.COMSPEC ?? 'cmd.exe';
    // /s /c "…": cmd strips the outer quotes and runs the rest exactly as typed.
    return { file: comspec, args: ['/d', '/s', '/c', `"${command}"`], verbatim: true, shell: comspec };
  }
  const shell = posixShell(host);
  return { file: shell, args: ['-c', command], verbatim: false, shell };
}

/** The command as a user would type it, for titles and logs. */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (a: string) => (a === '' ? "''" : /[^\w@%+=:,./-]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a);
  return args.length === 0 ? command : [command, ...args].map(quote).join(' ');
}

/** Integrated terminal name: the agent, then the command, shortened to fit a tab. */
export function terminalName(agentName: string, line: string, max = 60): string {
  const oneLine = line.replace(/\s+/g, ' ').trim();
  const cmd = oneLine.length > max ? oneLine.slice(0, max - 1) + '…' : oneLine;
  return `${agentName}: ${cmd}`;
}

/**
 * The command's environment: the extension host's, without the variables that only make sense
 * inside VS Code's own processes (ELECTRON_RUN_AS_NODE would turn any Electron app the command
 * starts into plain Node), then the agent's variables on top. Windows names are case-insensitive.
 * SHLVL is at least 1 (see below).
 */
export function terminalEnv(base: Readonly<Record<string, string | undefined>>, extra: readonly { name: string; value: string }[], platform: NodeJS.Platform): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || /^ELECTRON_RUN_AS_NODE$|^ELECTRON_NO_ATTACH_CONSOLE$|^VSCODE_(IPC_HOOK|HANDLES_|NLS_CONFIG|AMD_ENTRYPOINT|PID|CWD|ESM_ENTRYPOINT|CRASH_REPORTER|CODE_CACHE_PATH)/.test(k)) continue;
    env[k] = v;
  }
  for (const { name, value } of extra) {
    if (platform === 'win32') {
      for (const k of Object.keys(env)) if (k.toLowerCase() === name.toLowerCase()) delete env[k];
    }
    env[name] = value;
  }
  // bash runs the user's ~/.bashrc when its stdin is a socket (Node's stdio pipes are socket pairs:
  // bash takes it for an ssh connection) and it is the outermost shell (SHLVL unset or 0, as when
  // VS Code was started from a desktop launcher or a service). Every command (and an agent started
  // through a bash script) then paid for the user's shell setup (pyenv, nvm, conda: 0.1–1 s), and
  // whatever that prints went into the output the agent reads (for an agent: into its ACP stream).
  // A shell above it is what SHLVL 1 says, which is true enough: VS Code is one.
  if (platform !== 'win32' && !(Number(env.SHLVL) >= 1)) env.SHLVL = '1';
  return env;
}

/**
 * Starting a command in its own process group (so kill reaches everything it started) without a
 * new session. Node can only do that with `detached`, which calls setsid(): on Linux a new session
 * is also a new scheduler autogroup, and a command in another autogroup than the extension host
 * that reads its output is handed the CPU back and forth between two groups: 100 MB of output took
 * 2–3× as long as the same command read by a plain child_process on a busy 2-core machine. This
 * launcher (Perl, at a fixed path: on every macOS and Debian/Ubuntu) calls setpgid(0, 0) and execs
 * the command, which so keeps the host's session and autogroup. The program is looked up before
 * (findProgram), so a missing one is refused by name; should the exec still fail, the launcher
 * says why on stderr and exits 127 (not found) or 126, as a shell does. Perl's own PERL*
 * variables are passed under another name and restored before the exec, so they reach the
 * command but cannot change the launcher. PERL_BADLANG=0 keeps Perl from printing five lines of
 * warning into every command's output when the locale is not installed (an LC_ALL forwarded by ssh).
 */
export const GROUP_LAUNCHER_SCRIPT = [
  'delete $ENV{PERL_BADLANG}',
  'for my $k (grep { /^SWITCHBOARD_PERLENV_/ } keys %ENV) { my $v = delete $ENV{$k}; $k =~ s/^SWITCHBOARD_PERLENV_//; $ENV{$k} = $v }',
  'setpgrp(0, 0)',
  'exec { $ARGV[0] } @ARGV',
  'my $n = $! + 0; print STDERR "Could not start $ARGV[0]: $!\\n"; exit($n == 2 ? 127 : 126)', // 2: ENOENT
].join('; ');

/** The plan that runs `plan` through the launcher `perl` (see GROUP_LAUNCHER_SCRIPT), and the env it needs. */
export function viaGroupLauncher(plan: SpawnPlan, perl: string, env: Readonly<Record<string, string>>): { plan: SpawnPlan; env: Record<string, string> } {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (k.startsWith('SWITCHBOARD_PERLENV_')) continue;
    out[k.startsWith('PERL') ? `SWITCHBOARD_PERLENV_${k}` : k] = v;
  }
  out.PERL_BADLANG = '0';
  return { plan: { file: perl, args: ['-e', GROUP_LAUNCHER_SCRIPT, '--', plan.file, ...plan.args], verbatim: false }, env: out };
}

/**
 * Where exec would find `file`: a name with a slash as is (relative to `cwd`), else the first
 * executable regular file among its PATH candidates (commandCandidates: relative PATH entries are
 * skipped, as for agents). `notExecutable`: a file is there but none may be run.
 */
export function findProgram(file: string, host: LookupEnv, cwd: string, check: (p: string) => 'ok' | 'missing' | 'notExecutable'): { found: string } | { problem: 'notFound' | 'notExecutable' } {
  const candidates = file.includes('/') ? [posix.resolve(cwd, file)] : commandCandidates(file, host);
  let denied = false;
  for (const c of candidates) {
    const r = check(c);
    if (r === 'ok') return { found: c };
    if (r === 'notExecutable') denied = true;
  }
  return { problem: denied ? 'notExecutable' : 'notFound' };
}
