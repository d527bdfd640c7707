// The checks every request of an agent passes before anything is served, pure so they are tested
// fast: malformed input is refused at once (-32602), and the questions Switchboard asks on its own
// (a request outside its turn, a command nobody asked permission for) are decided here.
import { parse as parseShell } from 'shell-quote';
import { needsShell } from './terminal/spawnPlan';

/** What happens to an fs or terminal request that arrives while its session has no turn running. */
export type OutsideTurnPolicy = 'ask' | 'allow' | 'deny';

export function parseOutsideTurnPolicy(value: unknown): OutsideTurnPolicy {
  return value === 'allow' || value === 'deny' ? value : 'ask';
}

/** Why a path can never name a file (a NUL byte); undefined when it is well-formed. */
export function pathProblem(p: unknown): string | undefined {
  if (typeof p !== 'string') return 'the path is not a string';
  if (p.includes('\0')) return 'the path contains a NUL byte';
  return undefined;
}

/** Why an environment cannot be given to a process; undefined when it can. */
export function envProblem(env: readonly { name: string; value: string }[] | null | undefined): string | undefined {
  for (const v of env ?? []) {
    if (typeof v?.name !== 'string' || typeof v.value !== 'string') return 'an environment variable is not a name and a string value';
    if (v.name === '') return 'an environment variable has an empty name';
    if (v.name.includes('=') || v.name.includes('\0')) return `the environment variable name ${JSON.stringify(v.name)} contains "=" or a NUL byte`;
    if (v.value.includes('\0')) return `the value of ${v.name} contains a NUL byte`;
  }
  return undefined;
}

/** Why a command line cannot be run (NUL bytes); undefined when it can. */
export function commandProblem(command: string, args: readonly string[] | null | undefined): string | undefined {
  if (command.includes('\0') || (args ?? []).some(a => typeof a !== 'string' || a.includes('\0'))) return 'the command or an argument contains a NUL byte';
  return undefined;
}

/**
 * A command as it will run, for comparing what the user allowed with what the agent runs: an
 * argument vector (a program and its exact arguments, quotes and escapes resolved), or, for a shell
 * string that is more than one simple command, the string itself (`;`, `&&`, `||`, `|`, `&`,
 * redirections, `$(…)`, backticks, variables, globs, a newline…): such a string matches only the very
 * same string, never a simpler command.
 */
export type CommandKey = { readonly argv: readonly string[] } | { readonly shell: string };

// What shell-quote leaves as plain words though a shell gives it meaning: backticks, line breaks
// (a second command), a leading ~ and braces (expansions). Any of them, even quoted, keeps the string whole.
const UNPARSED_SYNTAX = /[`\r\n{}]|(^|[\s=:])~/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The key of a command line a shell runs (`sh -c`). `posix` false (Windows' cmd.exe, whose rules
 * differ): every string is kept whole. Parsed with shell-quote; a string it cannot reduce to one
 * simple command is its own key.
 */
export function shellCommandKey(text: string, posix = true): CommandKey {
  const whole = { shell: text.trim() };
  if (!posix || whole.shell === '' || UNPARSED_SYNTAX.test(text)) return whole;
  let tokens: ReturnType<typeof parseShell>;
  // Variables become objects (never substituted): a variable is not a simple word.
  try { tokens = parseShell(text, (name: string) => ({ op: `$${name}` }) as never); } catch { return whole; }
  if (!tokens.length || !tokens.every((t): t is string => typeof t === 'string') || ASSIGNMENT.test(tokens[0])) return whole;
  return { argv: tokens };
}

/** The key of a `terminal/create`: a string without args runs through a shell (see planTerminalSpawn), else the exact argv. */
export function terminalCommandKey(command: string, args: readonly string[], posix = true): CommandKey {
  return needsShell(command, args) ? shellCommandKey(command, posix) : { argv: [command, ...args] };
}

/**
 * What an allowed permission request permits to run: the command of its raw input (a string, parsed
 * like a shell line, or an argv array), and its title when the title is a command line (a whole
 * title, or one markdown code span as Claude's adapter writes it).
 */
export function permittedCommands(toolCall: { title?: string | null; rawInput?: unknown }, posix = true): CommandKey[] {
  const raw = toolCall.rawInput as { command?: unknown; cmd?: unknown } | null | undefined;
  const command = raw && typeof raw === 'object' ? raw.command ?? raw.cmd : undefined;
  const keys: CommandKey[] = [];
  if (Array.isArray(command) && command.length && command.every(a => typeof a === 'string')) keys.push({ argv: command });
  else if (typeof command === 'string' && command.trim()) keys.push(shellCommandKey(command, posix));
  const title = toolCall.title?.trim();
  if (title) keys.push(shellCommandKey(/^`[^`]+`$/.test(title) ? title.slice(1, -1) : title, posix));
  return keys;
}

const sameKey = (a: CommandKey, b: CommandKey): boolean =>
  'argv' in a ? 'argv' in b && a.argv.length === b.argv.length && a.argv.every((x, i) => x === b.argv[i]) : 'shell' in b && a.shell === b.shell;

/**
 * True when one of the requests the user allowed this turn named exactly this command: the same
 * argument vector, or for a compound shell string the same string. A part of an allowed line is not
 * it: allowing `echo rm -rf x`, `echo "a b"` or `echo "x; y"` never permits `rm -rf x`, `echo a b` or `echo x; y`.
 */
export function commandPermitted(allowed: readonly CommandKey[], command: CommandKey): boolean {
  return allowed.some(k => sameKey(k, command));
}
