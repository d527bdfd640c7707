// Which configured agents are installed on this computer (common/agentDetect.ts), looked up off the
// activation path: when the agent picker opens or an agent starts, never at activation. Files are
// only looked at (stat), nothing is run, so this is safe in an untrusted workspace too. A result is
// reused for a few seconds; a picker opened later sees an agent installed meanwhile.
import type { AgentSpec } from '../common/agentConfig';
import { detectInstalled, detectionTargets, InstalledAgent, preferInstalled } from '../common/agentDetect';
import { isRunnableFile } from '../common/commandLookup';

const FRESH_MS = 5000;

let last: { key: string; at: number; result: Promise<ReadonlyMap<string, InstalledAgent>> } | undefined;

/** The installed agents among `agents`, by name (cached while PATH and the agents stay the same). */
export function installedAgents(agents: readonly AgentSpec[]): Promise<ReadonlyMap<string, InstalledAgent>> {
  const targets = detectionTargets(agents);
  const host = { platform: process.platform, env: process.env };
  const key = JSON.stringify([process.env.PATH ?? process.env.Path, process.env.PATHEXT, targets]);
  if (last && last.key === key && Date.now() - last.at < FRESH_MS) return last.result;
  const result = detectInstalled(targets, host, file => isRunnableFile(file));
  last = { key, at: Date.now(), result };
  return result;
}

/** The installed agents, or none if looking takes longer than `ms` (a slow network folder on PATH). */
export function installedAgentsWithin(agents: readonly AgentSpec[], ms: number): Promise<ReadonlyMap<string, InstalledAgent>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReadonlyMap<string, InstalledAgent>>(resolve => { timer = setTimeout(() => resolve(new Map()), ms); });
  return Promise.race([installedAgents(agents).catch(() => new Map()), late]).finally(() => clearTimeout(timer));
}

/** The spec to start: an installed preset from its own binary (see preferInstalled). */
export async function launchSpec(spec: AgentSpec): Promise<AgentSpec> {
  if (!spec.preset) return spec;
  return preferInstalled(spec, (await installedAgentsWithin([spec], 2000)).get(spec.name));
}
