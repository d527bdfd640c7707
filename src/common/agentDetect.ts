// Which agents are already installed on this computer: their known ACP launch commands looked up on
// PATH (commandLookup.ts), files only looked at, nothing run. An installed preset is offered first
// in the agent picker and started from its own binary instead of through a package runner (no
// download, no registry lookup at every start). Takes any list of candidate launches: the ACP
// registry's agents that no preset or user entry stands for are detected the same way, by the
// program their registry entry names (registryTargets).
import { AgentSpec, runsRegistryPackage } from './agentConfig';
import { findCommandAsync, LookupEnv } from './commandLookup';
import type { AgentEntry, RegistryLaunch } from './registry/distribution';

export interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** An agent and the commands that start it in ACP mode when it is installed, preferred first. */
export interface DetectionTarget {
  readonly name: string;
  readonly launches: readonly LaunchCommand[];
}

export interface InstalledAgent {
  readonly name: string;
  /** The launch that was found. */
  readonly launch: LaunchCommand;
  /** Where its command is (absolute). */
  readonly path: string;
}

/**
 * The global-install launch commands of the presets whose preset command is a package runner
 * (`npx -y @agentclientprotocol/claude-agent-acp` is `claude-agent-acp` once installed with
 * `npm i -g`). Presets that start a command of their own (`goose acp`) are detected by that command.
 */
export const INSTALLED_LAUNCHES: Readonly<Record<string, readonly LaunchCommand[]>> = {
  'Claude Code': [{ command: 'claude-agent-acp', args: [] }, { command: 'claude-code-acp', args: [] }],
  'Codex': [{ command: 'codex-acp', args: [] }],
  'Gemini CLI': [{ command: 'gemini', args: ['--acp'] }],
  'GitHub Copilot CLI': [{ command: 'copilot', args: ['--acp'] }],
  'Cline': [{ command: 'cline', args: ['--acp'] }],
  'Qwen Code': [{ command: 'qwen', args: ['--acp'] }],
  'Auggie': [{ command: 'auggie', args: ['--acp'] }],
  'fast-agent': [{ command: 'fast-agent-acp', args: ['-x'] }],
};

/** What to look for, per agent: a preset's installed launches, else the agent's own command unless it is a package runner. */
export function detectionTargets(agents: readonly AgentSpec[]): DetectionTarget[] {
  return agents.map(a => {
    const own = runsRegistryPackage(a.command, a.args) ? [] : [{ command: a.command, args: a.args }];
    return { name: a.name, launches: a.preset ? INSTALLED_LAUNCHES[a.name] ?? own : own };
  }).filter(t => t.launches.length > 0);
}

/** A registry agent looked for by its program (the registry's launch kept for the settings entry). */
export interface RegistryDetectionTarget extends DetectionTarget {
  readonly registry: RegistryLaunch;
}

/** A program name to look up on PATH: a bare file name, never a path (the registry is not to point at files). */
const isBareProgram = (p: string) => p.length > 0 && p !== '.' && p !== '..' && !/[\\/:\0]/.test(p);

/**
 * What to look for among the registry's agents: those whose entry names a program (a binary's, or a
 * package's `cmd`), skipping any whose name or id is already the name of one of the picker's agents
 * (a preset, a user entry, an agent installed from the registry), compared without case; one per name.
 */
export function registryTargets(launches: readonly RegistryLaunch[], known: readonly Pick<AgentSpec, 'name'>[]): RegistryDetectionTarget[] {
  const taken = new Set(known.map(a => a.name.toLowerCase()));
  const out: RegistryDetectionTarget[] = [];
  for (const l of launches) {
    if (!l.program || !isBareProgram(l.program) || taken.has(l.name.toLowerCase()) || taken.has(l.id.toLowerCase())) continue;
    taken.add(l.name.toLowerCase());
    out.push({ name: l.name, launches: [{ command: l.program, args: l.programArgs ?? [] }], registry: l });
  }
  return out;
}

/** The `switchboard.agents` entry of a registry agent found installed: its program by absolute path, the registry's args and env. */
export function installedRegistryEntry(target: RegistryDetectionTarget, found: InstalledAgent): AgentEntry {
  const env = target.registry.env;
  return { command: found.path, args: [...found.launch.args], ...(Object.keys(env).length ? { env: { ...env } } : {}) };
}

/** Looks every launch command up once (in parallel), and keeps each agent's first launch found. */
export async function detectInstalled(
  targets: readonly DetectionTarget[], host: LookupEnv, probe: (file: string) => Promise<boolean>,
): Promise<Map<string, InstalledAgent>> {
  const lookups = new Map<string, Promise<string | undefined>>();
  const find = (command: string) => {
    let found = lookups.get(command);
    if (!found) lookups.set(command, (found = findCommandAsync(command, host, probe)));
    return found;
  };
  const result = new Map<string, InstalledAgent>();
  await Promise.all(targets.map(async t => {
    const paths = await Promise.all(t.launches.map(l => find(l.command)));
    const i = paths.findIndex(p => p !== undefined);
    if (i >= 0) result.set(t.name, { name: t.name, launch: t.launches[i], path: paths[i]! });
  }));
  return result;
}

/**
 * The spec to start: an untouched preset that is installed runs its own binary (by absolute path,
 * so no PATH entry relative to the workspace can stand in for it); everything else as configured.
 */
export function preferInstalled(spec: AgentSpec, installed: InstalledAgent | undefined): AgentSpec {
  if (!spec.preset || !installed || installed.name !== spec.name) return spec;
  return { ...spec, command: installed.path, args: installed.launch.args };
}
