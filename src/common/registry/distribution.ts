// From a registry entry to something we can run on this machine: which distribution to use, the
// `switchboard.agents` entry it becomes (npx / uvx pinned to a version, binaries by absolute
// path), and the launch commands of every registry agent (for finding agents already on PATH).
import path from 'node:path';
import { archiveKindOf } from './archive';
import type { BinaryTarget, PackageDistribution, PlatformKey, RegistryAgent } from './schema';

/** The registry's key for this machine (`linux-x86_64`, …), or undefined for one it has none for. */
export function platformKey(platform: NodeJS.Platform, arch: string): PlatformKey | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? `${os}-${cpu}` as PlatformKey : undefined;
}

export type Choice =
  | { readonly kind: 'npx' | 'uvx'; readonly dist: PackageDistribution }
  | { readonly kind: 'binary'; readonly platform: PlatformKey; readonly target: BinaryTarget };

/** Why an agent cannot be installed here. */
export type Unavailable =
  | { readonly reason: 'platform'; readonly platform: PlatformKey | undefined; readonly published: readonly PlatformKey[] }
  | { readonly reason: 'format'; readonly platform: PlatformKey; readonly format: string };

/**
 * The distribution to install: a binary built for this platform (self-contained, checksummed),
 * else the npm package, else the Python one, else a binary with no published checksum (installed
 * only when the user allows unverified downloads).
 */
export function pickDistribution(agent: RegistryAgent, platform: PlatformKey | undefined): Choice | Unavailable {
  const target = platform ? agent.distribution.binary?.[platform] : undefined;
  const format = target ? archiveKindOf(target.archive) : undefined;
  if (target && platform && typeof format === 'string' && target.sha256) return { kind: 'binary', platform, target };
  if (agent.distribution.npx) return { kind: 'npx', dist: agent.distribution.npx };
  if (agent.distribution.uvx) return { kind: 'uvx', dist: agent.distribution.uvx };
  if (target && platform && typeof format === 'string') return { kind: 'binary', platform, target };
  if (target && platform && format && typeof format !== 'string') return { reason: 'format', platform, format: format.unsupported };
  return { reason: 'platform', platform, published: Object.keys(agent.distribution.binary ?? {}) as PlatformKey[] };
}

export const isChoice = (c: Choice | Unavailable): c is Choice => 'kind' in c;

/** A binary download the registry publishes no SHA-256 for: nothing can check what arrives. */
export const isUnverified = (c: Choice | Unavailable): boolean => isChoice(c) && c.kind === 'binary' && !c.target.sha256;

/** What `switchboard.agents` holds for an agent (see src/common/agentConfig.ts). */
export interface AgentEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** A package name with no version: `name`, `@scope/name` (npm), `name[extra]` (PyPI). */
const BARE_NPM = /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/i;
const BARE_PYPI = /^[A-Za-z0-9][\w.-]*(\[[\w.,-]+\])?$/;

/**
 * The package spec pinned to the registry's version: `pkg@1.2.3` (npm), `pkg==1.2.3` (PyPI).
 * A spec that already names a version (or a URL, a git ref) is kept as the registry gives it.
 */
export function pinnedPackage(kind: 'npx' | 'uvx', pkg: string, version: string): string {
  if (kind === 'npx') return BARE_NPM.test(pkg) ? `${pkg}@${version}` : pkg;
  return BARE_PYPI.test(pkg) ? `${pkg}==${version}` : pkg;
}

/** `npx -y pkg@v args` or `npx -y --package pkg@v cmd args`; `uvx pkg==v args` or `uvx --from pkg==v cmd args`. */
export function packageEntry(kind: 'npx' | 'uvx', dist: PackageDistribution, version: string): AgentEntry {
  const pkg = pinnedPackage(kind, dist.package, version);
  const rest = [...(dist.args ?? [])];
  const args = kind === 'npx'
    ? (dist.cmd ? ['-y', '--package', pkg, dist.cmd, ...rest] : ['-y', pkg, ...rest])
    : (dist.cmd ? ['--from', pkg, dist.cmd, ...rest] : [pkg, ...rest]);
  return withEnv({ command: kind, args }, dist.env);
}

/** The unpacked program by absolute path inside `installDir` (`cmd` is already checked relative). */
export function binaryEntry(target: BinaryTarget, installDir: string, pathApi: path.PlatformPath = path): AgentEntry {
  return withEnv({ command: pathApi.join(installDir, ...target.cmd.split('/')), args: [...(target.args ?? [])] }, target.env);
}

function withEnv(entry: AgentEntry, env: Readonly<Record<string, string>> | undefined): AgentEntry {
  return env && Object.keys(env).length ? { ...entry, env: { ...env } } : entry;
}

/** How a registry agent is launched on a platform, for finding agents the user already has. */
export interface RegistryLaunch {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly kind: Choice['kind'];
  /** `npx` / `uvx`, or for a binary its path inside the unpacked archive (`dist-package/cursor-agent`). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The program's file name, when the registry names one (a binary's, or a package's `cmd`): what to look for on PATH. */
  readonly program?: string;
  /** The arguments after `program` when it is run directly (an installed copy found on PATH). */
  readonly programArgs?: readonly string[];
}

/** The launch command of every registry agent installable on `platform`, in registry order. */
export function launchCommands(agents: readonly RegistryAgent[], platform: PlatformKey | undefined): RegistryLaunch[] {
  const out: RegistryLaunch[] = [];
  for (const agent of agents) {
    const choice = pickDistribution(agent, platform);
    if (!isChoice(choice)) continue;
    const base = { id: agent.id, name: agent.name, version: agent.version, kind: choice.kind };
    if (choice.kind === 'binary') {
      const t = choice.target;
      out.push({ ...base, command: t.cmd, args: t.args ?? [], env: t.env ?? {}, program: t.cmd.split('/').pop(), programArgs: t.args ?? [] });
    } else {
      const entry = packageEntry(choice.kind, choice.dist, agent.version);
      out.push({ ...base, command: entry.command, args: entry.args, env: entry.env ?? {}, ...(choice.dist.cmd ? { program: choice.dist.cmd, programArgs: choice.dist.args ?? [] } : {}) });
    }
  }
  return out;
}
