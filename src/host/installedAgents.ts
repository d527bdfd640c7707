// Which configured agents are installed on this computer (common/agentDetect.ts), looked up off the
// activation path: when the agent picker opens or an agent starts, never at activation. Files are
// only looked at (stat), nothing is run, so this is safe in an untrusted workspace too. A result is
// reused for a few seconds; a picker opened later sees an agent installed meanwhile. The registry's
// agents are looked for too, from the copy available offline (never fetched when the picker opens):
// the registry code is its own bundle, reached through the source extension.ts registers.
import type { AgentSpec } from '../common/agentConfig';
import {
  DetectionTarget, detectInstalled, detectionTargets, InstalledAgent, preferInstalled, RegistryDetectionTarget, registryTargets,
} from '../common/agentDetect';
import { isRunnableFile } from '../common/commandLookup';
import type { AgentEntry, RegistryLaunch } from '../common/registry/distribution';

const FRESH_MS = 5000;

const recent = new Map<string, { at: number; result: Promise<ReadonlyMap<string, InstalledAgent>> }>();

/** The installed agents among `targets`, by name (cached while PATH and the targets stay the same). */
function detectCached(targets: readonly DetectionTarget[]): Promise<ReadonlyMap<string, InstalledAgent>> {
  const host = { platform: process.platform, env: process.env };
  const key = JSON.stringify([process.env.PATH ?? process.env.Path, process.env.PATHEXT, targets.map(t => [t.name, t.launches])]);
  const now = Date.now();
  for (const [k, v] of recent) if (now - v.at >= FRESH_MS) recent.delete(k);
  const hit = recent.get(key);
  if (hit) return hit.result;
  const result = detectInstalled(targets, host, file => isRunnableFile(file));
  recent.set(key, { at: now, result });
  return result;
}

/** The installed agents among `agents`, by name. */
export function installedAgents(agents: readonly AgentSpec[]): Promise<ReadonlyMap<string, InstalledAgent>> {
  return detectCached(detectionTargets(agents));
}

/** `work`'s result, or `fallback` if it takes longer than `ms` (a slow network folder on PATH) or fails. */
function within<T>(work: () => Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>(resolve => { timer = setTimeout(() => resolve(fallback), ms); });
  return Promise.race([work().catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/** The installed agents, or none if looking takes longer than `ms`. */
export function installedAgentsWithin(agents: readonly AgentSpec[], ms: number): Promise<ReadonlyMap<string, InstalledAgent>> {
  return within(() => installedAgents(agents), ms, new Map<string, InstalledAgent>());
}

/** The spec to start: an installed preset from its own binary (see preferInstalled). */
export async function launchSpec(spec: AgentSpec): Promise<AgentSpec> {
  if (!spec.preset) return spec;
  return preferInstalled(spec, (await installedAgentsWithin([spec], 2000)).get(spec.name));
}

/** What the picker needs of the ACP registry (host/registry/agentRegistry.ts, loaded on first use). */
export interface RegistryAgentSource {
  /** The launch commands of the registry's agents from the copy available offline: the cache, else the shipped snapshot. */
  offlineLaunches(): Promise<readonly RegistryLaunch[]>;
  /** Writes the user's `switchboard.agents` entry for an agent. */
  saveEntry(name: string, entry: AgentEntry): Promise<void>;
}

let registrySource: (() => RegistryAgentSource) | undefined;

/** Called once by extension.ts: how to reach the registry (requires its bundle when first called). */
export function setRegistryAgentSource(get: () => RegistryAgentSource): void {
  registrySource = get;
}

export function registryAgentSource(): RegistryAgentSource | undefined {
  return registrySource?.();
}

export interface InstalledRegistryAgent {
  readonly target: RegistryDetectionTarget;
  readonly found: InstalledAgent;
}

/**
 * The registry's agents installed on this computer that none of `known` stands for, in registry
 * order; none if reading the registry copy and looking take longer than `ms`.
 */
export function installedRegistryAgentsWithin(known: readonly AgentSpec[], ms: number): Promise<readonly InstalledRegistryAgent[]> {
  return within(async () => {
    const source = registryAgentSource();
    if (!source) return [];
    const targets = registryTargets(await source.offlineLaunches(), known);
    const found = await detectCached(targets);
    return targets.flatMap(target => {
      const hit = found.get(target.name);
      return hit ? [{ target, found: hit }] : [];
    });
  }, ms, []);
}
