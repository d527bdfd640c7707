// Unpacks a downloaded agent archive into a fresh folder with `tar` (.tar, .tar.gz, .tgz) or
// `yauzl` (.zip), never a shell. Every entry is checked before it is written (src/common/registry/
// archive.ts): no absolute paths, no `..`, no device files, no link leading out of the folder; and
// once written, every symbolic link is resolved for real and must still land inside. Both
// libraries are loaded on first use from their own bundles (dist/tar.js, dist/yauzl.js).
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type * as TarModule from 'tar';
import type * as YauzlModule from 'yauzl';
import { ARCHIVE_LIMITS, ArchiveKind, isInside, linkStaysInside, safeEntryPath } from '../../common/registry/archive';

export class ArchiveError extends Error {}

const loadTar = () => require('tar') as typeof TarModule;
const loadYauzl = () => require('yauzl') as typeof YauzlModule;

/**
 * Unpacks `file` into `dest` (created, expected empty). A raw program is copied to `rawPath`
 * (the registry's `cmd`) and made executable. Throws ArchiveError for an unsafe or damaged archive;
 * the caller removes `dest`.
 */
export async function extractArchive(file: string, kind: ArchiveKind, dest: string, rawPath: string): Promise<void> {
  await fs.promises.mkdir(dest, { recursive: true });
  if (kind === 'raw') {
    const target = path.join(dest, ...rawPath.split('/'));
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.copyFile(file, target);
    await fs.promises.chmod(target, 0o755);
    return;
  }
  if (kind === 'tar') await extractTar(file, dest);
  else await extractZip(file, dest);
  await checkLinks(dest);
}

class Budget {
  private bytes = 0;
  private entries = 0;
  add(name: string, size: number): void {
    this.bytes += size;
    if (++this.entries > ARCHIVE_LIMITS.maxEntries) throw new ArchiveError(`the archive has more than ${ARCHIVE_LIMITS.maxEntries} entries`);
    if (this.bytes > ARCHIVE_LIMITS.maxBytes) throw new ArchiveError(`the archive unpacks to more than ${ARCHIVE_LIMITS.maxBytes / 1024 ** 3} GB (at ${name})`);
  }
}

const refusal = (name: string, why: string) => new ArchiveError(`the archive entry ${JSON.stringify(name)} ${why}`);

async function extractTar(file: string, dest: string): Promise<void> {
  const tar = loadTar();
  const budget = new Budget();
  let problem: Error | undefined;
  try {
    await tar.x({
      file, cwd: dest,
      // Damaged data, a bad header, a path tar itself would have to rewrite: all errors.
      strict: true, preservePaths: false, preserveOwner: false,
      filter: (p, entry) => {
        if (problem) return false;
        try {
          checkTarEntry(entry as TarModule.ReadEntry, budget);
          return true;
        } catch (e) {
          problem = e as Error;
          return false;
        }
      },
    });
  } catch (e) {
    throw problem ?? new ArchiveError(`the archive could not be unpacked: ${(e as Error).message}`);
  }
  if (problem) throw problem;
}

function checkTarEntry(entry: TarModule.ReadEntry, budget: Budget): void {
  const name = entry.path;
  const p = safeEntryPath(name);
  if (typeof p !== 'string') throw refusal(name, p.refused);
  budget.add(name, entry.size ?? 0);
  switch (entry.type) {
    case 'File': case 'OldFile': case 'ContiguousFile': case 'Directory':
      return;
    case 'SymbolicLink': {
      const ok = linkStaysInside(p, entry.linkpath ?? '');
      if (ok !== true) throw refusal(name, ok.refused);
      return;
    }
    case 'Link': {
      // A hard link names another entry of the archive, from its root.
      const target = safeEntryPath(entry.linkpath ?? '');
      if (typeof target !== 'string' || !target) throw refusal(name, `is a hard link out of the folder (${entry.linkpath})`);
      return;
    }
    default:
      throw refusal(name, `is a ${entry.type} (only files, folders and links are unpacked)`);
  }
}

async function extractZip(file: string, dest: string): Promise<void> {
  const yauzl = loadYauzl();
  let zip: YauzlModule.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: false });
  } catch (e) {
    throw new ArchiveError(`the archive is not a valid zip file: ${(e as Error).message}`);
  }
  const budget = new Budget();
  // Links are made last, so no file is ever written through one.
  const links: [string, string][] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      const p = safeEntryPath(name);
      if (typeof p !== 'string') throw refusal(name, p.refused);
      budget.add(name, entry.uncompressedSize);
      const target = path.join(dest, ...p.split('/'));
      const mode = (entry.externalFileAttributes >>> 16) & 0o177777;
      const type = mode & 0o170000;
      if (name.endsWith('/') || type === 0o040000) {
        await fs.promises.mkdir(target, { recursive: true });
      } else if (type === 0o120000) {
        if (entry.uncompressedSize > 4096) throw refusal(name, 'is a link with an overlong target');
        const linkTarget = (await readAll(await zip.openReadStreamPromise(entry))).toString('utf8');
        const ok = linkStaysInside(p, linkTarget);
        if (ok !== true) throw refusal(name, ok.refused);
        links.push([target, linkTarget]);
      } else if (type === 0 || type === 0o100000) {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        const out = fs.createWriteStream(target, { flags: 'wx', mode: mode & 0o111 ? 0o755 : 0o644 });
        await pipeline(await zip.openReadStreamPromise(entry), out);
      } else {
        throw refusal(name, 'is a device, socket or pipe (only files, folders and links are unpacked)');
      }
    }
  } catch (e) {
    zip.close();
    throw e instanceof ArchiveError ? e : new ArchiveError(`the archive could not be unpacked: ${(e as Error).message}`);
  }
  for (const [at, to] of links) await fs.promises.symlink(to, at);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Every symbolic link under `root`, resolved for real (links to links too), must stay inside it. */
async function checkLinks(root: string): Promise<void> {
  const realRoot = await fs.promises.realpath(root);
  const entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isSymbolicLink()) continue;
    const at = path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    let real: string;
    try {
      real = await fs.promises.realpath(at);
    } catch {
      // Dangling: where it would point once its target exists.
      real = path.resolve(path.dirname(at), await fs.promises.readlink(at));
    }
    if (!isInside(realRoot, real) && !isInside(root, real)) {
      throw new ArchiveError(`the archive entry ${JSON.stringify(path.relative(root, at))} links outside the agent's folder`);
    }
  }
}
