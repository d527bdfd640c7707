// The ACP agent registry (registry.json, format v1): its JSON Schema as this client reads it, and
// parsing a fetched copy into entries we can trust. Written from the registry's FORMAT.md and
// agent.schema.json; lenient where the registry may grow (unknown keys and distribution kinds are
// ignored), strict where a value reaches a path, a command line or a download. A malformed entry
// is skipped with a reason; only a document that is not a registry at all fails as a whole.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { relativeCommand } from './archive';

export const PLATFORM_KEYS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type PlatformKey = typeof PLATFORM_KEYS[number];

export interface PackageDistribution {
  readonly package: string;
  /** The package's executable to run, when it is not the package's default bin. */
  readonly cmd?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export interface BinaryTarget {
  readonly archive: string;
  /** Hex SHA-256 of the archive, lower case; optional in the registry. */
  readonly sha256?: string;
  /** Path of the program inside the unpacked archive, `/`-separated, never leaving it. */
  readonly cmd: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export interface RegistryAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** Absolute http(s) or file URL of the agent's SVG icon, resolved against the registry's URL. */
  readonly icon?: string;
  readonly repository?: string;
  readonly website?: string;
  readonly license?: string;
  readonly authors?: readonly string[];
  readonly distribution: {
    readonly npx?: PackageDistribution;
    readonly uvx?: PackageDistribution;
    readonly binary?: Readonly<Partial<Record<PlatformKey, BinaryTarget>>>;
  };
}

export interface ParsedRegistry {
  readonly version?: string;
  readonly agents: readonly RegistryAgent[];
  /** One line per entry (or part of one) left out, e.g. `agents[3] "x": /version must match pattern …`. */
  readonly skipped: readonly string[];
}

export class RegistryFormatError extends Error {}

// Names, descriptions and args are shown and spawned: no control or format characters (bidi
// overrides, zero-width), bounded lengths. Package names and commands never start with `-`, so
// they cannot pass as options of npx / uvx.
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '^[^\\p{Cc}\\p{Cf}]*$' });
const arg = { type: 'string', maxLength: 4096, pattern: '^[^\\u0000]*$' };
const args = { type: 'array', items: arg, maxItems: 256 };
const env = {
  type: 'object', maxProperties: 256,
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 256 },
  additionalProperties: { type: 'string', maxLength: 32768, pattern: '^[^\\u0000]*$' },
};
const notAnOption = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '^[^\\s\\-\\u0000][^\\s\\u0000]*$' });

const packageDistribution = {
  type: 'object', required: ['package'],
  properties: { package: notAnOption(512), cmd: notAnOption(256), args, env },
};
const binaryTarget = {
  type: 'object', required: ['archive', 'cmd'],
  properties: {
    archive: { type: 'string', minLength: 1, maxLength: 2048 },
    sha256: { type: 'string', pattern: '^[a-fA-F0-9]{64}$' },
    cmd: { type: 'string', minLength: 1, maxLength: 512, pattern: '^[^\\u0000]*$' },
    args, env,
  },
};

/** One registry entry. Keys this client does not know are allowed and ignored. */
export const AGENT_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'version', 'description', 'distribution'],
  properties: {
    // The id and version name folders of globalStorage/agents/<id>/<version>: no separators, no dots alone.
    id: { type: 'string', maxLength: 64, pattern: '^[a-z][a-z0-9-]*$' },
    name: text(100),
    version: { type: 'string', maxLength: 64, pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+([-+.][0-9A-Za-z.+-]*)?$' },
    description: text(1000),
    icon: { type: 'string', maxLength: 2048 },
    repository: { type: 'string', maxLength: 2048 },
    website: { type: 'string', maxLength: 2048 },
    license: { type: 'string', maxLength: 256 },
    authors: { type: 'array', items: { type: 'string', maxLength: 256 }, maxItems: 64 },
    distribution: {
      type: 'object',
      properties: {
        npx: packageDistribution,
        uvx: packageDistribution,
        binary: { type: 'object', maxProperties: 32, additionalProperties: binaryTarget },
      },
    },
  },
} as const;

/** The document: `{version, agents: [...]}`; entries are checked one by one with AGENT_SCHEMA. */
export const REGISTRY_SCHEMA = {
  type: 'object',
  required: ['agents'],
  properties: {
    version: { type: 'string', maxLength: 64 },
    agents: { type: 'array', maxItems: 5000 },
  },
} as const;

/**
 * The validators of REGISTRY_SCHEMA and AGENT_SCHEMA, compiled ahead of time by ajv
 * (scripts/registryValidators.mjs writes validators.generated.js; a unit test keeps it current):
 * required on the first parse, so nothing of them loads at activation and no schema is compiled.
 */
const compile = (): { registry: ValidateFunction; agent: ValidateFunction } => require('./validators.generated') as { registry: ValidateFunction; agent: ValidateFunction };

const describe = (e: ErrorObject | undefined) => (e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'is invalid');

/**
 * Reads a registry document. `base` is the URL it came from: relative icon URLs resolve against
 * it. Throws RegistryFormatError only when the document as a whole is not a registry.
 */
export function parseRegistry(doc: unknown, base?: string): ParsedRegistry {
  const { registry, agent: checkAgent } = compile();
  if (!registry(doc)) throw new RegistryFormatError(`Not an ACP registry: ${describe(registry.errors?.[0])}`);
  const raw = doc as { version?: string; agents: unknown[] };
  const agents: RegistryAgent[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  raw.agents.forEach((entry, i) => {
    const id = typeof (entry as { id?: unknown })?.id === 'string' ? JSON.stringify((entry as { id: string }).id) : '';
    const where = `agents[${i}]${id ? ' ' + id : ''}`;
    if (!checkAgent(entry)) { skipped.push(`${where}: ${describe(checkAgent.errors?.[0])}`); return; }
    const a = entry as RegistryAgent;
    if (seen.has(a.id)) { skipped.push(`${where}: duplicate id`); return; }
    const distribution = usableDistribution(a, where, skipped);
    if (!distribution) return;
    seen.add(a.id);
    agents.push(strip({
      id: a.id, name: a.name.trim(), version: a.version, description: a.description.trim(),
      icon: resolveUrl(a.icon, base), repository: a.repository, website: a.website, license: a.license, authors: a.authors,
      distribution,
    }));
  });
  return { version: raw.version, agents, skipped };
}

/** The distributions of an entry this client can use; undefined (with a reason) when none is left. */
function usableDistribution(a: RegistryAgent, where: string, skipped: string[]): RegistryAgent['distribution'] | undefined {
  const d = a.distribution;
  const out: { npx?: PackageDistribution; uvx?: PackageDistribution; binary?: Partial<Record<PlatformKey, BinaryTarget>> } = {};
  if (d.npx) out.npx = d.npx;
  if (d.uvx) out.uvx = d.uvx;
  if (d.binary) {
    const binary: Partial<Record<PlatformKey, BinaryTarget>> = {};
    for (const [key, t] of Object.entries(d.binary) as [string, BinaryTarget][]) {
      if (!(PLATFORM_KEYS as readonly string[]).includes(key)) continue; // a platform this client does not know
      const cmd = relativeCommand(t.cmd);
      if (typeof cmd !== 'string') { skipped.push(`${where}: binary.${key}.cmd ${cmd.refused}`); continue; }
      const url = httpUrl(t.archive);
      if (!url) { skipped.push(`${where}: binary.${key}.archive is not an http(s) URL`); continue; }
      binary[key as PlatformKey] = strip({ ...t, archive: url, cmd, sha256: t.sha256?.toLowerCase() });
    }
    if (Object.keys(binary).length) out.binary = binary;
  }
  if (!out.npx && !out.uvx && !out.binary) {
    const kinds = Object.keys(d);
    skipped.push(`${where}: no distribution this client can use${kinds.length ? ` (${kinds.join(', ')})` : ''}`);
    return undefined;
  }
  return out;
}

function httpUrl(s: string): string | undefined {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch { return undefined; }
}

/**
 * An icon URL: absolute http(s), or relative to the registry's own URL (a mirror, a local file).
 * A local file only for a registry that is itself a local file.
 */
function resolveUrl(icon: string | undefined, base: string | undefined): string | undefined {
  if (!icon) return undefined;
  try {
    const u = base ? new URL(icon, base) : new URL(icon);
    if (u.protocol === 'https:' || u.protocol === 'http:') return u.href;
    return u.protocol === 'file:' && base?.startsWith('file:') ? u.href : undefined;
  } catch { return undefined; }
}

function strip<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
