// How to spawn an agent command on each platform, without a shell wherever one can be avoided, and
// never a login or interactive one: the agent's stdout must carry only the protocol, so no shell
// profile may print into it.
//
// POSIX: the command is spawned as it is (exact argv). Windows: `npx`, `pnpm` and most
// npm-installed CLIs are `.cmd` shims, which Node (since the fixes for CVE-2024-27980, e.g. 20.12.2
// and 22.12) refuses to spawn without a shell ("spawn EINVAL"; older versions: "spawn npx ENOENT",
// a top complaint in other clients). We resolve the command through PATH/PATHEXT ourselves, then:
// - a standard npm shim (written by npm's cmd-shim) runs what it wraps directly: `node <script>`
//   or the native `.exe`, so no cmd.exe is involved at all;
// - any other `.cmd`/`.bat` runs through `cmd.exe /d /s /c` (no AutoRun commands: /d) with each
//   argument quoted for the C runtime and caret-escaped twice for cmd (once for our command line,
//   once for the batch file that passes it on with %*, as npm's own promise-spawn does), never
//   `shell: true` with unquoted strings;
// - a `.ps1` runs through `powershell -NoProfile -NonInteractive -ExecutionPolicy Bypass -File`.
import path from 'node:path';
import { findCommand, LookupEnv, windowsExtensions } from './commandLookup';

export interface SpawnPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** Pass to spawn's `windowsVerbatimArguments` so our cmd quoting is kept as is. */
  readonly verbatim: boolean;
  /** The program the command needs to run (an npm shim's `node`), when it was not found: spawning fails for it. */
  readonly needs?: string;
}

export interface PlatformView extends LookupEnv {
  /** True when a regular file exists at this absolute path. */
  readonly isFile: (path: string) => boolean;
  /** The text of a small file (a `.cmd` shim), or undefined if it cannot be read. */
  readonly readText?: (path: string) => string | undefined;
}

export function planSpawn(command: string, args: readonly string[], host: PlatformView): SpawnPlan {
  if (host.platform !== 'win32') return { file: command, args, verbatim: false };
  const resolved = findCommand(command, host);
  const ext = resolved ? path.win32.extname(resolved).toLowerCase() : '';
  if (resolved && (ext === '.cmd' || ext === '.bat')) {
    const text = host.readText?.(resolved);
    const shim = text === undefined ? undefined : readNpmShim(text);
    return (shim && planNpmShim(resolved, shim, args, host)) ?? planCmd(resolved, args, host);
  }
  if (resolved && ext === '.ps1') {
    const root = host.env.SystemRoot ?? host.env.SYSTEMROOT;
    const builtIn = root && path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
    const file = builtIn && host.isFile(builtIn) ? builtIn : 'powershell.exe';
    return { file, args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', resolved, ...args], verbatim: false };
  }
  return { file: resolved ?? command, args, verbatim: false };
}

function planCmd(batchFile: string, args: readonly string[], host: PlatformView): SpawnPlan {
  const comspec = host.env.ComSpec ?? host.env.COMSPEC ?? 'cmd.exe';
  // The batch file in plain quotes: the command token cmd finds as it finds any quoted program.
  const line = [`"${batchFile}"`, ...args.map(a => quoteForCmd(a, true))].join(' ');
  return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], verbatim: true };
}

/** What a standard npm `.cmd` shim runs: `<program> <programArgs> <dp0>\<target> %*`, or `<dp0>\<target> %*`. */
export interface NpmShim {
  /** Relative to the shim's folder, with backslashes. */
  readonly target: string;
  /** The interpreter from the script's `#!` line (`node`), looked for beside the shim first, then on PATH. */
  readonly program?: string;
  readonly programArgs: readonly string[];
}

// Every line npm's cmd-shim writes, besides the one that runs the target. A shim with any other
// line (variables from `#!/usr/bin/env -S VAR=x node`, pnpm's NODE_PATH, a hand-written batch file)
// is not read: it runs through cmd.exe, which does whatever it says.
const SHIM_LINES = [
  /^@ECHO off$/i, /^GOTO start$/i, /^:find_dp0$/i, /^SET dp0=%~dp0$/i, /^EXIT \/b( %errorlevel%)?$/i, /^:start$/i,
  /^SETLOCAL$/i, /^ENDLOCAL$/i, /^CALL :find_dp0$/i, /^\) ELSE \($/i, /^\)$/, /^SET PATHEXT=%PATHEXT:;\.JS;=;%$/i,
  /^IF EXIST "%dp0%\\[^"\\%]+\.exe" \($/i, /^SET "_prog=[^"%\\]+"$/i, /^SET "_prog=%dp0%\\[^"\\%]+\.exe"$/i,
];
const RUN_PROGRAM = /^(?:endLocal & goto #_undefined_# 2>NUL \|\| title %COMSPEC% & )?"%_prog%" ([^"%&|<>^\r\n]*)"%dp0%\\([^"%\r\n]+)" +%\*$/i;
const RUN_TARGET = /^"%dp0%\\([^"%\r\n]+\.exe)" +%\*$/i;

/** Reads a `.cmd` written by npm's cmd-shim; undefined for anything else. */
export function readNpmShim(text: string): NpmShim | undefined {
  const lines = text.split(/\r?\n/).map(l => l.trim()).filter(Boolean);
  if (!lines.some(l => /^SET dp0=%~dp0$/i.test(l))) return undefined;
  const runs = lines.filter(l => !SHIM_LINES.some(re => re.test(l)));
  if (runs.length !== 1) return undefined;
  const direct = RUN_TARGET.exec(runs[0]);
  if (direct) return lines.some(l => /_prog/i.test(l)) ? undefined : { target: direct[1], programArgs: [] };
  const viaProgram = RUN_PROGRAM.exec(runs[0]);
  const names = lines.flatMap(l => /^SET "_prog=(?:%dp0%\\)?([^"%\\/]+?)(?:\.exe)?"$/i.exec(l)?.[1] ?? []);
  if (!viaProgram || names.length !== 2 || names[0].toLowerCase() !== names[1].toLowerCase()) return undefined;
  return { target: viaProgram[2], program: names[0], programArgs: viaProgram[1].trim().split(/\s+/).filter(Boolean) };
}

/** The shim's target run directly; undefined when that is not possible (cmd.exe runs the shim then). */
function planNpmShim(shimFile: string, shim: NpmShim, args: readonly string[], host: PlatformView): SpawnPlan | undefined {
  const dir = path.win32.dirname(shimFile);
  const target = path.win32.join(dir, shim.target);
  if (!shim.program) return host.isFile(target) ? { file: target, args, verbatim: false } : undefined;
  // As the shim does: the program beside it, else the one on PATH (never a `.js` of that name).
  const beside = path.win32.join(dir, `${shim.program}.exe`);
  const pathext = windowsExtensions(host.env).filter(e => e !== '.js' && e !== '.ps1').join(';');
  const program = host.isFile(beside) ? beside : findCommand(shim.program, { ...host, env: { ...host.env, PATHEXT: pathext } });
  const runArgs = [...shim.programArgs, target, ...args];
  if (!program) return { file: shim.program, args: runArgs, verbatim: false, needs: shim.program };
  return /\.(exe|com)$/i.test(program) ? { file: program, args: runArgs, verbatim: false } : undefined;
}

/**
 * Quotes one argument for cmd.exe + the C runtime: backslashes before a quote doubled, quotes
 * escaped, the whole wrapped in quotes; then cmd's metacharacters caret-escaped so they reach the
 * program literally — twice (`twice`) for an argument a batch file re-reads through %*.
 */
export function quoteForCmd(arg: string, twice = false): string {
  const quoted = '"' + arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1') + '"';
  const escape = (s: string) => s.replace(/[()%!^"<>&|]/g, '^$&');
  return twice ? escape(escape(quoted)) : escape(quoted);
}
