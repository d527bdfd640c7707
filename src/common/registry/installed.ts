// What the user has installed from the registry, and how that compares with the registry now:
// versions, "installed" / "update available", and how old a cached copy of the registry is.
import type { Choice } from './distribution';

/** Kept in globalState per registry id: what Switchboard installed and under which agent name. */
export interface InstallRecord {
  /** The key of its `switchboard.agents` entry. */
  readonly name: string;
  readonly version: string;
  readonly kind: Choice['kind'];
  /** For a binary: globalStorage/agents/<id>/<version>. */
  readonly dir?: string;
}

export type InstallRecords = Readonly<Record<string, InstallRecord>>;

/** Reads the records as stored, dropping anything malformed (globalState is ours, but old versions may differ). */
export function parseRecords(value: unknown): Record<string, InstallRecord> {
  const out: Record<string, InstallRecord> = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [id, r] of Object.entries(value as Record<string, unknown>)) {
    const rec = r as Partial<InstallRecord> | null;
    if (!rec || typeof rec.name !== 'string' || typeof rec.version !== 'string') continue;
    if (rec.kind !== 'npx' && rec.kind !== 'uvx' && rec.kind !== 'binary') continue;
    out[id] = { name: rec.name, version: rec.version, kind: rec.kind, ...(typeof rec.dir === 'string' ? { dir: rec.dir } : {}) };
  }
  return out;
}

/**
 * Orders versions: numeric dot-separated parts (`2026.10.01` too), then a release above its
 * pre-releases (`1.0.0-rc.1` < `1.0.0`), pre-release identifiers compared as semver does. Build
 * metadata (`+…`) is ignored. Negative when a < b.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [main, pre] = v.split('+')[0].split(/-(.*)/s);
    return { nums: main.split('.').map(n => (/^\d+$/.test(n) ? Number(n) : NaN)), pre: pre ? pre.split('.') : [] };
  };
  const x = split(a), y = split(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const p = x.nums[i] ?? 0, q = y.nums[i] ?? 0;
    if (Number.isNaN(p) || Number.isNaN(q)) return a.localeCompare(b);
    if (p !== q) return p < q ? -1 : 1;
  }
  if (!x.pre.length || !y.pre.length) return Math.sign(y.pre.length - x.pre.length); // a release is above its pre-releases
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i], q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p), qn = /^\d+$/.test(q);
    if (pn && qn && Number(p) !== Number(q)) return Number(p) < Number(q) ? -1 : 1;
    if (pn !== qn) return pn ? -1 : 1;
    if (!pn && p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

export type InstallState =
  | { readonly state: 'available' }
  | { readonly state: 'installed'; readonly version: string }
  | { readonly state: 'update'; readonly version: string; readonly latest: string };

/**
 * An agent counts as installed while Switchboard's record of it exists and `switchboard.agents`
 * still has its entry (`configured`); an update is available when the registry's version is newer.
 */
export function installState(latest: string, record: InstallRecord | undefined, configured: (name: string) => boolean): InstallState {
  if (!record || !configured(record.name)) return { state: 'available' };
  return compareVersions(latest, record.version) > 0
    ? { state: 'update', version: record.version, latest }
    : { state: 'installed', version: record.version };
}

/** "5 minutes ago", "yesterday", "2 months ago": in the user's language (Intl). */
export function relativeAge(fromMs: number, nowMs: number, locale?: string): string {
  let rtf: Intl.RelativeTimeFormat;
  try { rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }); } catch { rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' }); }
  const s = Math.round((fromMs - nowMs) / 1000);
  const [unit, size] = AGE_UNITS.find(([, size]) => Math.abs(s) >= size) ?? AGE_UNITS[AGE_UNITS.length - 1];
  return rtf.format(Math.round(s / size), unit);
}

const AGE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400], ['month', 30 * 86400], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1],
];
