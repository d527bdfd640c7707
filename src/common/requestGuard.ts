// The checks every request of an agent passes before anything is served, pure so they are tested
// fast: malformed input is refused at once (-32602), and the questions Switchboard asks on its own
// (a request outside its turn, a command nobody asked permission for) are decided here.

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

const normalize = (s: string) => s.replace(/[`'"]/g, '').replace(/\s+/g, ' ').trim();

/**
 * What a permission request asked to run: its title and its raw input's command, each normalized,
 * one per line (normalizing folds any newline inside them, so the lines are exactly these two).
 */
export function permissionCommandText(toolCall: { title?: string | null; rawInput?: unknown }): string {
  const raw = toolCall.rawInput as { command?: unknown; cmd?: unknown } | null | undefined;
  const command = raw && typeof raw === 'object' ? raw.command ?? raw.cmd : undefined;
  const parts = [toolCall.title ?? '', Array.isArray(command) ? command.join(' ') : typeof command === 'string' ? command : ''];
  return parts.map(normalize).join('\n');
}

/**
 * True when one of the requests the user allowed this turn named exactly this command line (as its
 * command or its whole title). A part of an allowed line is not it: allowing `echo rm -rf x` or
 * `git push --dry-run` never permits `rm -rf x` or `git push`.
 */
export function commandPermitted(allowed: readonly string[], command: string, args: readonly string[]): boolean {
  const line = normalize([command, ...args].join(' '));
  return line !== '' && allowed.some(text => text.split('\n').includes(line));
}
