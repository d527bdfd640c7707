// Which agents the user can start: built-in presets merged with the `switchboard.agents` setting.
// Pure: takes plain values read from settings, returns validated specs plus readable problems
// (localized: the host shows them in a warning).
import * as l10n from '@vscode/l10n';
import { programName } from './commandLookup';

export interface AgentSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** True when the entry comes from the built-in presets, untouched by the user. */
  readonly preset: boolean;
}

export interface AgentConfigResult {
  readonly agents: readonly AgentSpec[];
  /** One line per rejected entry, e.g. `"My Agent": "command" must be a non-empty string`. */
  readonly problems: readonly string[];
}

type PresetEntry = { command: string; args?: string[] };

/** Launch commands of the popular ACP agents (see docs/agents in the README). */
export const AGENT_PRESETS: Readonly<Record<string, PresetEntry>> = {
  'Claude Code': { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'] },
  'Codex': { command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'] },
  'Gemini CLI': { command: 'npx', args: ['-y', '@google/gemini-cli', '--acp'] },
  'GitHub Copilot CLI': { command: 'npx', args: ['-y', '@github/copilot', '--acp'] },
  'Cursor': { command: 'cursor-agent', args: ['acp'] },
  'OpenCode': { command: 'opencode', args: ['acp'] },
  'Goose': { command: 'goose', args: ['acp'] },
  'Cline': { command: 'npx', args: ['-y', 'cline', '--acp'] },
  'Qwen Code': { command: 'npx', args: ['-y', '@qwen-code/qwen-code', '--acp'] },
  'Auggie': { command: 'npx', args: ['-y', '@augmentcode/auggie', '--acp'] },
  'Kiro': { command: 'kiro-cli', args: ['acp'] },
  'Kimi': { command: 'kimi', args: ['acp'] },
  'fast-agent': { command: 'uvx', args: ['fast-agent-acp', '-x'] },
  'Mistral Vibe': { command: 'vibe-acp' },
};

/**
 * Merges presets with the user's entries. The user's value for a name replaces the preset of that
 * name; `null` or `false` hides a preset. Accepts Zed's `agent_servers` shape as-is (extra keys such
 * as `type`, `default_mode` are ignored), and `env` both as an object and as `[{name, value}]`.
 */
export function resolveAgents(userValue: unknown): AgentConfigResult {
  const problems: string[] = [];
  const byName = new Map<string, AgentSpec>();
  for (const [name, preset] of Object.entries(AGENT_PRESETS)) {
    byName.set(name, { name, command: preset.command, args: preset.args ?? [], env: {}, preset: true });
  }
  if (userValue !== undefined && userValue !== null) {
    if (typeof userValue !== 'object' || Array.isArray(userValue)) {
      problems.push(l10n.t({ message: '"switchboard.agents" must be an object mapping agent names to {command, args, env}', comment: ['Words in quotes and braces are setting keys and JSON: keep them as they are.'] }));
    } else {
      for (const [name, entry] of Object.entries(userValue as Record<string, unknown>)) {
        if (entry === null || entry === false) { byName.delete(name); continue; }
        const parsed = parseEntry(name, entry);
        if (typeof parsed === 'string') problems.push(parsed);
        else byName.set(name, parsed);
      }
    }
  }
  return { agents: [...byName.values()], problems };
}

function parseEntry(name: string, entry: unknown): AgentSpec | string {
  const where = JSON.stringify(name);
  if (!name.trim()) return l10n.t('An agent needs a non-empty name');
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return l10n.t({ message: '{0}: expected an object with "command", "args" and "env"', args: [where], comment: ['{0} is the name of an agent entry of the setting switchboard.agents, in quotes.', 'Words in quotes and braces are setting keys and JSON: keep them as they are.'] });
  }
  const e = entry as Record<string, unknown>;
  if (typeof e.command !== 'string' || !e.command.trim()) return l10n.t({ message: '{0}: "command" must be a non-empty string', args: [where], comment: ['{0} is the name of an agent entry of the setting switchboard.agents, in quotes.', 'Words in quotes and braces are setting keys and JSON: keep them as they are.'] });
  let args: string[] = [];
  if (e.args !== undefined && e.args !== null) {
    if (!Array.isArray(e.args) || !e.args.every(a => typeof a === 'string')) return l10n.t({ message: '{0}: "args" must be an array of strings', args: [where], comment: ['{0} is the name of an agent entry of the setting switchboard.agents, in quotes.', 'Words in quotes and braces are setting keys and JSON: keep them as they are.'] });
    args = e.args as string[];
  }
  const env = parseEnv(e.env);
  if (typeof env === 'string') return `${where}: ${env}`;
  return { name, command: e.command.trim(), args, env, preset: false };
}

function parseEnv(value: unknown): Record<string, string> | string {
  if (value === undefined || value === null) return {};
  const out: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const v of value) {
      if (typeof v !== 'object' || v === null || typeof v.name !== 'string' || typeof v.value !== 'string') {
        return l10n.t({ message: '"env" entries must be {"name": string, "value": string}', comment: ['Words in quotes and braces are setting keys and JSON: keep them as they are.'] });
      }
      out[v.name] = v.value;
    }
    return out;
  }
  if (typeof value !== 'object') return l10n.t({ message: '"env" must be an object of strings', comment: ['Words in quotes and braces are setting keys and JSON: keep them as they are.'] });
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== 'string') return l10n.t({ message: '"env.{0}" must be a string', args: [k], comment: ['{0} is the name of an environment variable.', 'Words in quotes and braces are setting keys and JSON: keep them as they are.'] });
    out[k] = v;
  }
  return out;
}

/** The agent to start: the configured default if it exists, else none (the user is asked). */
export function pickDefaultAgent(agents: readonly AgentSpec[], defaultName: unknown): AgentSpec | undefined {
  if (typeof defaultName !== 'string' || !defaultName) return undefined;
  return agents.find(a => a.name === defaultName);
}

/** Package runners: the command fetches and runs a package by name (`npx -y pkg`, `uvx tool`, `pnpm dlx pkg`). */
const RUNNERS: Readonly<Record<string, readonly string[] | true>> = {
  npx: true, pnpx: true, bunx: true, uvx: true,
  npm: ['exec', 'x'], pnpm: ['dlx'], yarn: ['dlx'], bun: ['x'], pipx: ['run'], uv: ['tool'],
};

/**
 * True when the command runs a package from a registry by name. Started in the workspace, such a
 * runner would take a package of that name from the workspace (node_modules/.bin, .npmrc, uv.toml)
 * instead: these agents are started from a neutral folder.
 */
export function runsRegistryPackage(command: string, args: readonly string[]): boolean {
  const base = programName(command);
  const rule = Object.hasOwn(RUNNERS, base) ? RUNNERS[base] : undefined;
  if (rule === true) return true;
  const sub = args.find(a => !a.startsWith('-'));
  return !!rule && sub !== undefined && rule.includes(sub);
}
