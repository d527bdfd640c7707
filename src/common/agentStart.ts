// What the chat says while an agent starts, and when its start failed, without VS Code:
// - the first start of an agent through a package runner (`npx -y pkg`, `uvx tool`) fetches the
//   package: the status says it downloads it, by name;
// - a start that takes longer than a few seconds says what it waits for (the answer to
//   `initialize`), with the seconds;
// - a start that failed is told in the agent's own words: the error line of what it printed on
//   stderr, never its stack trace (the whole stderr goes to the log).
// "First start" is Switchboard's own record of the runner launches that once answered initialize.
import * as l10n from '@vscode/l10n';
import { runsRegistryPackage } from './agentConfig';
import { programName } from './commandLookup';

/** After this long a start says what it waits for. */
export const SLOW_START_MS = 3000;

/** Runners whose package is named after a subcommand (`npm exec pkg`, `pnpm dlx pkg`, `uv tool run pkg`). */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'], pnpm: ['dlx'], yarn: ['dlx'], bun: ['x'], pipx: ['run'], uv: ['tool', 'run'],
};
/** Runner options whose value is the package (`npx -p pkg cmd`, `uvx --from pkg cmd`). */
const PACKAGE_OPTIONS = ['-p', '--package', '--from'];
/** Runner options that take a value which is not the package. */
const VALUE_OPTIONS = ['--python', '-c', '--call', '--with', '--registry', '--cache', '--prefix'];

/** The package a package-runner launch fetches (`npx -y @scope/pkg --acp` → `@scope/pkg`), else undefined. */
export function runnerPackage(command: string, args: readonly string[]): string | undefined {
  if (!runsRegistryPackage(command, args)) return undefined;
  const skip = new Set(SUBCOMMANDS[programName(command)] ?? []);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.split(/=(.*)/s, 2);
    if (PACKAGE_OPTIONS.includes(flag)) return inline ?? args[i + 1];
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.includes(flag) && inline === undefined) i++;
      continue;
    }
    if (skip.has(a)) { skip.delete(a); continue; }
    return a;
  }
  return undefined;
}

/** The key a runner launch is remembered by once it started (the same command and arguments). */
export function launchKey(command: string, args: readonly string[]): string {
  return JSON.stringify([programName(command), ...args]);
}

/** How many started runner launches are remembered (the oldest is forgotten first). */
const MAX_REMEMBERED = 100;

/** The remembered launches with `key` added (last), read defensively (stored by older versions too). */
export function rememberLaunch(stored: unknown, key: string): string[] {
  const list = Array.isArray(stored) ? stored.filter((k): k is string => typeof k === 'string' && k !== key) : [];
  return [...list, key].slice(-MAX_REMEMBERED);
}

export function isRemembered(stored: unknown, key: string): boolean {
  return Array.isArray(stored) && stored.includes(key);
}

export interface StartProgress {
  readonly agentName: string;
  /** The package a first start through a runner downloads. */
  readonly downloading?: string;
  readonly elapsedMs: number;
}

/** The status line while an agent starts. */
export function startStatus({ agentName, downloading, elapsedMs }: StartProgress): string {
  const seconds = Math.floor(elapsedMs / 1000);
  if (downloading) {
    return elapsedMs < SLOW_START_MS
      ? l10n.t({ message: 'Downloading {0} (first start)…', args: [downloading], comment: '{0} is a package name such as @agentclientprotocol/claude-agent-acp' })
      : l10n.t({ message: 'Downloading {0} (first start, {1} s)…', args: [downloading, seconds], comment: '{0} is a package name, {1} a number of seconds' });
  }
  return elapsedMs < SLOW_START_MS
    ? l10n.t('Starting {0}…', agentName)
    : l10n.t({ message: 'Waiting for {0} to answer initialize ({1} s)', args: [agentName, seconds], comment: '"initialize" is the name of an ACP request; {1} is a number of seconds' });
}

/** A line of a stack trace (Node.js, Python, Java, Go, Rust), or a note around one. */
const STACK_LINE = /^\s*(at\s|File ".*", line \d|Traceback \(most recent call last\)|goroutine \d|\.\.\.\s*\d+ more|-+$|\^+$|\d+:\s|Node\.js v\d|note: run with `RUST_BACKTRACE)/;
/** A line that states an error (`Error: …`, `TypeError: …`, `error: …`, `Fatal: …`, `panic: …`). */
const ERROR_LINE = /^\s*(?:\[?[\w.]*(?:Error|Exception|error|fatal|Fatal|FATAL|ERROR|panic)\]?\s*[:\]]|thread '.*' panicked|npm (?:error|ERR!) )/;
/** Error lines that say nothing of the cause: where a log is, an error code alone. */
const NOISE_LINE = /complete log of this run|debug-\d+\.log|^npm (?:error|ERR!) code \w+$|^npm (?:error|ERR!)\s*\d*$/;
const MAX_WORDS = 300;

/**
 * What the agent said when it failed to start, as one line: the first line of its stderr that states
 * an error (stack frames, source excerpts, log locations and bare error codes skipped), else its
 * last line that is not part of a stack trace; undefined when it printed nothing useful. Control
 * characters out, length bounded.
 */
export function startFailureWords(stderr: string): string | undefined {
  const lines = stderr.split(/\r?\n/).map(l => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()).filter(Boolean);
  const useful = lines.filter(l => !STACK_LINE.test(l) && !NOISE_LINE.test(l) && !/^\[eval\]|^\S+\.(m?js|ts|py):\d+$/.test(l));
  const line = useful.find(l => ERROR_LINE.test(l)) ?? useful.at(-1);
  if (!line) return undefined;
  return line.length > MAX_WORDS ? `${line.slice(0, MAX_WORDS - 1)}…` : line;
}
