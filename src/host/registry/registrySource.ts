// Where the agent registry comes from: `switchboard.registry.url` (the user's own settings only;
// a repository must not choose what we download and run), else the registry's CDN. A fetched copy
// and its icons are cached in global storage; with no network the cache is used, else the snapshot
// shipped in the VSIX (media/registry-snapshot.json), and the caller is told how old it is.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { ParsedRegistry, parseRegistry, RegistryAgent } from '../../common/registry/schema';
import { SECTION } from '../config';
import { fetchBytes } from './download';

export const REGISTRY_URL_SETTING = 'registry.url';
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

export interface LoadedRegistry {
  readonly registry: ParsedRegistry;
  readonly url: string;
  /** network: fetched now; cache: the last copy fetched; snapshot: the copy shipped with Switchboard. */
  readonly source: 'network' | 'cache' | 'snapshot';
  /** When this copy was fetched (ms since the epoch). */
  readonly fetchedAt: number;
  /** Why the network copy could not be used, when it could not. */
  readonly error?: string;
}

const REGISTRY_MAX_BYTES = 16 * 1024 * 1024;
const ICON_MAX_BYTES = 64 * 1024;
const FETCH_IDLE_MS = 15_000;
/** How long the picker waits for icons it has not cached yet; the rest come next time. */
const ICON_WAIT_MS = 1500;

/**
 * The registry URL from the user's settings, else the default. A plain absolute path names a
 * local file (an air-gapped mirror).
 */
export function readRegistryUrl(): string {
  const i = vscode.workspace.getConfiguration(SECTION).inspect<string>(REGISTRY_URL_SETTING);
  const value = (i?.globalValue ?? '').trim();
  if (!value) return DEFAULT_REGISTRY_URL;
  return path.isAbsolute(value) && !/^[a-z][a-z0-9+.-]+:\/\//i.test(value) ? pathToFileURL(value).href : value;
}

/** Plain http downloads are allowed only from a registry the user chose that is itself not https. */
export function allowsHttp(url: string): boolean {
  return url !== DEFAULT_REGISTRY_URL && !url.startsWith('https:');
}

export class RegistrySource {
  constructor(private readonly storageDir: string, private readonly snapshotFile: string, private readonly log: Logger) {}

  get cacheDir(): string { return path.join(this.storageDir, 'registry'); }
  private get cacheFile(): string { return path.join(this.cacheDir, 'registry.json'); }
  private get metaFile(): string { return path.join(this.cacheDir, 'meta.json'); }
  private get iconDir(): string { return path.join(this.cacheDir, 'icons'); }

  /** The registry: fetched now, else the cached copy, else the shipped snapshot. Never throws for the network. */
  async load(signal?: AbortSignal): Promise<LoadedRegistry> {
    const url = readRegistryUrl();
    let error: string;
    try {
      const bytes = await fetchBytes(url, { maxBytes: REGISTRY_MAX_BYTES, idleTimeoutMs: FETCH_IDLE_MS, signal, allowHttp: allowsHttp(url) });
      const registry = this.parse(JSON.parse(bytes.toString('utf8')), url, 'fetched');
      const fetchedAt = Date.now();
      await this.writeCache(bytes, url, fetchedAt);
      return { registry, url, source: 'network', fetchedAt };
    } catch (e) {
      error = (e as Error).message;
      this.log.warn(`Agent registry ${url} could not be loaded: ${error}`);
    }
    const cached = await this.readCache();
    if (cached) return { ...cached, source: 'cache', error };
    const snapshot = await this.readSnapshot();
    return { ...snapshot, source: 'snapshot', error };
  }

  private offline: { key: string; loaded: Promise<LoadedRegistry> } | undefined;

  /**
   * The copy available without the network: the cache, else the snapshot (for finding registry
   * agents on PATH when the agent picker opens). Parsed again only when the cache file changed.
   */
  async loadOffline(): Promise<LoadedRegistry> {
    const key = await fs.promises.stat(this.cacheFile).then(s => `${s.mtimeMs}:${s.size}`, () => 'snapshot');
    if (this.offline?.key !== key) {
      const loaded = (async (): Promise<LoadedRegistry> => {
        const cached = await this.readCache();
        return cached ? { ...cached, source: 'cache' } : { ...await this.readSnapshot(), source: 'snapshot' };
      })();
      this.offline = { key, loaded };
      loaded.catch(() => { if (this.offline?.loaded === loaded) this.offline = undefined; });
    }
    return this.offline.loaded;
  }

  private parse(doc: unknown, url: string, what: string): ParsedRegistry {
    const registry = parseRegistry(doc, url);
    for (const line of registry.skipped) this.log.warn(`Agent registry (${what} from ${url}): skipped ${line}`);
    return registry;
  }

  private async writeCache(bytes: Buffer, url: string, fetchedAt: number): Promise<void> {
    try {
      await fs.promises.mkdir(this.cacheDir, { recursive: true });
      await writeAtomic(this.cacheFile, bytes);
      await writeAtomic(this.metaFile, Buffer.from(JSON.stringify({ url, fetchedAt })));
    } catch (e) {
      this.log.warn(`Agent registry: could not cache it: ${(e as Error).message}`);
    }
  }

  private async readCache(): Promise<Omit<LoadedRegistry, 'source'> | undefined> {
    try {
      const meta = JSON.parse(await fs.promises.readFile(this.metaFile, 'utf8')) as { url?: unknown; fetchedAt?: unknown };
      if (typeof meta.url !== 'string' || typeof meta.fetchedAt !== 'number') return undefined;
      const doc = JSON.parse(await fs.promises.readFile(this.cacheFile, 'utf8'));
      return { registry: this.parse(doc, meta.url, 'cached'), url: meta.url, fetchedAt: meta.fetchedAt };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`Agent registry: the cached copy is unusable: ${(e as Error).message}`);
      return undefined;
    }
  }

  private async readSnapshot(): Promise<Omit<LoadedRegistry, 'source'>> {
    const doc = JSON.parse(await fs.promises.readFile(this.snapshotFile, 'utf8')) as { snapshot?: { url?: string; date?: string } };
    const url = doc.snapshot?.url ?? DEFAULT_REGISTRY_URL;
    const fetchedAt = Date.parse(doc.snapshot?.date ?? '') || (await fs.promises.stat(this.snapshotFile)).mtimeMs;
    return { registry: this.parse(doc, url, 'snapshot'), url, fetchedAt };
  }

  /** The cached icon of an agent for light and dark themes, once fetched. */
  iconOf(agent: RegistryAgent): { light: vscode.Uri; dark: vscode.Uri } | undefined {
    const light = path.join(this.iconDir, `${agent.id}.light.svg`);
    const dark = path.join(this.iconDir, `${agent.id}.dark.svg`);
    return fs.existsSync(light) && fs.existsSync(dark) ? { light: vscode.Uri.file(light), dark: vscode.Uri.file(dark) } : undefined;
  }

  /**
   * Fetches the icons not cached yet, waiting at most ICON_WAIT_MS (the rest land in the cache
   * for next time). Registry icons are monochrome SVGs drawn in `currentColor`: a quick pick shows
   * them as images, so each is kept in a light-theme and a dark-theme colour.
   */
  async fetchIcons(loaded: LoadedRegistry): Promise<void> {
    const missing = loaded.registry.agents.filter(a => a.icon && !this.iconOf(a));
    if (!missing.length) return;
    const all = (async () => {
      await fs.promises.mkdir(this.iconDir, { recursive: true });
      const queue = [...missing];
      const worker = async () => {
        for (let a = queue.shift(); a; a = queue.shift()) await this.fetchIcon(a, loaded.url);
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
    })();
    await Promise.race([all, new Promise(r => setTimeout(r, ICON_WAIT_MS))]);
  }

  private async fetchIcon(agent: RegistryAgent, registryUrl: string): Promise<void> {
    try {
      const svg = (await fetchBytes(agent.icon!, { maxBytes: ICON_MAX_BYTES, idleTimeoutMs: 5000, allowHttp: allowsHttp(registryUrl) })).toString('utf8');
      if (!/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(svg)) throw new Error('not an SVG image');
      const tint = (colour: string) => Buffer.from(svg.replace(/currentColor/gi, colour));
      await writeAtomic(path.join(this.iconDir, `${agent.id}.light.svg`), tint('#424242'));
      await writeAtomic(path.join(this.iconDir, `${agent.id}.dark.svg`), tint('#C5C5C5'));
    } catch (e) {
      this.log.info(`Agent registry: no icon for ${agent.id}: ${(e as Error).message}`);
    }
  }
}

async function writeAtomic(file: string, data: Buffer): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, data);
  await fs.promises.rename(tmp, file);
}
