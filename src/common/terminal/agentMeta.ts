// Commands the agent runs itself, as today's adapters report them on their tool calls (a de-facto
// extension riding on `_meta`, shown by Zed as display-only terminals):
//   terminal_info         {terminal_id, cwd?, command?}   a command started
//   terminal_output       {terminal_id, data}             output chunk (the Zed convention)
//   terminal_output_delta {terminal_id, data}             output chunk
//   terminal_exit         {terminal_id, exit_code, signal} it ended
// Both output keys carry chunks to append: codex-acp sends every chunk as `terminal_output` to a
// client that declares `_meta.terminal_output` (and as `terminal_output_delta` to one that declares
// only that), claude-agent-acp sends the whole output once. The agent is untrusted: anything
// malformed is ignored, strings are bounded.

export interface AgentTerminalMeta {
  readonly terminalId: string;
  /** terminal_info was present: the command started. */
  readonly started: boolean;
  readonly cwd?: string;
  readonly command?: string;
  /** Output chunks to append, in order. */
  readonly output: readonly string[];
  readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
}

const MAX_ID = 500;
const MAX_TEXT = 4096;

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
const shortString = (v: unknown, max = MAX_TEXT): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined;

/** The terminal facts a tool call's `_meta` carries, or undefined when it carries none. */
export function parseAgentTerminalMeta(meta: unknown): AgentTerminalMeta | undefined {
  const m = record(meta);
  if (!m) return undefined;
  const info = record(m.terminal_info);
  const full = record(m.terminal_output);
  const delta = record(m.terminal_output_delta);
  const exit = record(m.terminal_exit);
  const terminalId = [info, full, delta, exit].map(p => shortString(p?.terminal_id, MAX_ID)).find(id => id !== undefined);
  if (!terminalId) return undefined;
  const output = [full, delta].flatMap(p => (p && typeof p.data === 'string' && p.data.length > 0 && (p.terminal_id === undefined || p.terminal_id === terminalId) ? [p.data] : []));
  const code = exit?.exit_code;
  return {
    terminalId,
    started: info !== undefined,
    ...(shortString(info?.cwd) ? { cwd: shortString(info?.cwd) } : {}),
    ...(shortString(info?.command) ? { command: shortString(info?.command) } : {}),
    output,
    ...(exit ? {
      exit: {
        exitCode: typeof code === 'number' && Number.isInteger(code) ? code : null,
        signal: shortString(exit.signal, 100) ?? null,
      },
    } : {}),
  };
}

/**
 * The command line of an agent-run command: `terminal_info.command`, else the tool call's rawInput
 * (`command` as a string, or Codex's `["bash", "-lc", "…"]`), else undefined (the title shows it).
 */
export function commandOf(rawInput: unknown): string | undefined {
  const command = record(rawInput)?.command;
  if (typeof command === 'string') return shortString(command);
  if (Array.isArray(command) && command.every(c => typeof c === 'string')) {
    const parts = command as string[];
    if (parts.length === 3 && /^-l?c$/.test(parts[1]) && /(^|\/)(ba|z|da)?sh$/.test(parts[0])) return shortString(parts[2]);
    return shortString(parts.join(' '));
  }
  return undefined;
}
