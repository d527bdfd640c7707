// Where a command name is found on PATH, the way the operating system finds it, without a shell
// and without running anything: the candidate files are only looked at (stat). Used to plan how an
// agent is spawned (spawnPlan.ts) and to tell which agents are installed (agentDetect.ts).
//
// Windows: each PATH folder with each PATHEXT extension (a name that already has one of them is
// taken as is), then `.ps1`, since npm writes a PowerShell shim beside each `.cmd`. POSIX: each
// PATH folder, and the file must be executable. A name with a path separator is not looked up.
// Relative PATH entries (".", an empty entry) are skipped: they would resolve against the current
// folder — the workspace — which must never choose what runs.
import fs from 'node:fs';
import path from 'node:path';

export interface LookupEnv {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** An environment variable; Windows names are case-insensitive (`Path`, `PATH`, `PathExt`). */
export function envValue(env: LookupEnv['env'], name: string, platform: NodeJS.Platform): string | undefined {
  if (env[name] !== undefined || platform !== 'win32') return env[name];
  const key = Object.keys(env).find(k => k.toUpperCase() === name.toUpperCase() && env[k] !== undefined);
  return key === undefined ? undefined : env[key];
}

/** A program's name as typed: no folder, no Windows extension, lower case (`C:\\x\\NPX.cmd` → `npx`). */
export function programName(command: string): string {
  return command.split(/[\\/]/).pop()!.replace(/\.(exe|cmd|bat|ps1|com)$/i, '').toLowerCase();
}

/** The extensions Windows tries for a bare name, lower case, `.ps1` last. */
export function windowsExtensions(env: LookupEnv['env']): string[] {
  const exts = (envValue(env, 'PATHEXT', 'win32') ?? DEFAULT_PATHEXT).split(';').map(e => e.trim().toLowerCase()).filter(e => /^\.[^.\\/]+$/.test(e));
  return [...new Set([...exts, '.ps1'])];
}

/** The files `command` may be, in the order the OS tries them (see the header). */
export function commandCandidates(command: string, { platform, env }: LookupEnv): string[] {
  const win = platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const exts = win ? windowsExtensions(env) : [];
  const withExts = (base: string) => (!win || exts.includes(p.extname(base).toLowerCase()) ? [base] : exts.map(e => base + e));
  if (!command || (win ? /[\\/]/ : /\//).test(command)) return command ? withExts(command) : [];
  const dirs = (envValue(env, 'PATH', platform) ?? '').split(win ? ';' : ':')
    .map(d => (win ? d.trim().replace(/^"(.*)"$/, '$1') : d))
    .filter(d => d && p.isAbsolute(d));
  return [...new Set(dirs)].flatMap(dir => withExts(p.join(dir, command)));
}

/** The first candidate `isFile` accepts (synchronous: for the spawn plan). */
export function findCommand(command: string, host: LookupEnv & { readonly isFile: (file: string) => boolean }): string | undefined {
  return commandCandidates(command, host).find(f => host.isFile(f));
}

/** The first candidate `probe` accepts, without blocking (for detection). */
export async function findCommandAsync(command: string, host: LookupEnv, probe: (file: string) => Promise<boolean>): Promise<string | undefined> {
  for (const file of commandCandidates(command, host)) if (await probe(file)) return file;
  return undefined;
}

/** True for a regular file (a symlink to one included) that may be run: on POSIX it must be executable by us. */
export async function isRunnableFile(file: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  try {
    if (!(await fs.promises.stat(file)).isFile()) return false;
    if (platform !== 'win32') await fs.promises.access(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
