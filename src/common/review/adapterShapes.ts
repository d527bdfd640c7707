// What today's adapters put beside the standard fields of a tool call, read defensively (the agent
// is untrusted input): Claude's `rawInput` (file_path, old_string, new_string, replace_all) and
// `_meta.claudeCode.toolResponse` (filePath, originalFile, …), and command output that Codex
// carries only in `rawOutput` (stdout, stderr, exit code).
import * as l10n from '@vscode/l10n';

const str = (v: unknown): v is string => typeof v === 'string';
const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file an edit tool call names in its raw input (Claude: file_path; others: path / filePath). */
export function rawInputPath(rawInput: unknown): string | undefined {
  if (!obj(rawInput)) return undefined;
  const p = rawInput.file_path ?? rawInput.filePath ?? rawInput.path ?? rawInput.notebook_path;
  return str(p) ? p : undefined;
}

/** Claude's Edit input: the snippet and whether every occurrence is replaced. */
export function rawInputSnippet(rawInput: unknown): { oldText: string; newText: string; replaceAll: boolean } | undefined {
  if (!obj(rawInput) || !str(rawInput.old_string) || !str(rawInput.new_string)) return undefined;
  return { oldText: rawInput.old_string, newText: rawInput.new_string, replaceAll: rawInput.replace_all === true };
}

/** Every snippet of Claude's Edit (`old_string`/`new_string`) or MultiEdit (`edits: [...]`) input. */
export function rawInputSnippets(rawInput: unknown): { oldText: string; newText: string; replaceAll: boolean }[] {
  const one = rawInputSnippet(rawInput);
  if (one) return [one];
  if (!obj(rawInput) || !Array.isArray(rawInput.edits)) return [];
  return rawInput.edits.slice(0, 100).flatMap(e => {
    const s = rawInputSnippet(e);
    return s ? [s] : [];
  });
}

export interface ClaudeToolResponse {
  readonly filePath: string;
  /** The whole file before the tool ran; null when the tool created it; undefined when not sent. */
  readonly originalFile: string | null | undefined;
}

/** `_meta.claudeCode.toolResponse` of an Edit / Write / MultiEdit, when it names a file. */
export function claudeToolResponse(meta: unknown): ClaudeToolResponse | undefined {
  if (!obj(meta) || !obj(meta.claudeCode) || !obj(meta.claudeCode.toolResponse)) return undefined;
  const r = meta.claudeCode.toolResponse;
  if (!str(r.filePath)) return undefined;
  const originalFile = str(r.originalFile) ? r.originalFile : r.originalFile === null ? null : undefined;
  return { filePath: r.filePath, originalFile };
}

export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
}

const MAX_OUTPUT_CHARS = 64 * 1024;

/**
 * Command output carried in `rawOutput`, as Codex shapes it (`stdout`, `stderr`, `exit_code`,
 * `aggregated_output`, `formatted_output`) and as other agents do (`output`, `exitCode`).
 * Undefined when `rawOutput` is not command output.
 */
export function commandOutput(rawOutput: unknown): CommandOutput | undefined {
  if (!obj(rawOutput)) return undefined;
  const code = rawOutput.exit_code ?? rawOutput.exitCode ?? (obj(rawOutput.metadata) ? rawOutput.metadata.exit_code : undefined);
  const exitCode = typeof code === 'number' && Number.isFinite(code) ? code : null;
  let stdout = str(rawOutput.stdout) ? rawOutput.stdout : undefined;
  const stderr = str(rawOutput.stderr) ? rawOutput.stderr : '';
  if (stdout === undefined) {
    const alt = rawOutput.aggregated_output ?? rawOutput.formatted_output ?? rawOutput.output;
    if (str(alt)) stdout = alt;
  }
  if (stdout === undefined && !stderr && exitCode === null) return undefined;
  return { stdout: clip(stdout ?? ''), stderr: clip(stderr), exitCode };
}

function clip(s: string): string {
  if (s.length <= MAX_OUTPUT_CHARS) return s;
  const n = s.length - MAX_OUTPUT_CHARS;
  const notice = n === 1
    ? l10n.t({ message: '… (1 earlier character not shown)', comment: ['Above the end of a long command output in the chat.'] })
    : l10n.t({ message: '… ({0} earlier characters not shown)', args: [n], comment: ['Above the end of a long command output in the chat; {0} is a count.'] });
  return `${notice}\n${s.slice(-MAX_OUTPUT_CHARS)}`;
}
