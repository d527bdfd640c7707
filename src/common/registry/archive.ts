// What may come out of a downloaded agent archive: the kinds we unpack, and the paths an entry
// may write. An archive is untrusted input: no absolute path, no `..`, no link that leads out of
// the agent's folder, no device files. Pure (path strings only); the unpacking is host/registry.
import path from 'node:path';

export type ArchiveKind = 'tar' | 'zip' | 'raw';

/** Formats the registry allows that we do not unpack (yet), and installers it forbids. */
const UNSUPPORTED = /\.(tar\.bz2|tbz2?|tar\.xz|txz|tar\.zst|7z|rar|dmg|pkg|deb|rpm|msi|appimage)$/i;

/** How to unpack the archive at `url`: tar (.tar, .tar.gz, .tgz), zip, or a raw program. */
export function archiveKindOf(url: string): ArchiveKind | { unsupported: string } {
  let name: string;
  try { name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? ''); } catch { name = url; }
  const bad = UNSUPPORTED.exec(name);
  if (bad) return { unsupported: bad[0].toLowerCase() };
  if (/\.(tar\.gz|tgz|tar)$/i.test(name)) return 'tar';
  if (/\.zip$/i.test(name)) return 'zip';
  return 'raw';
}

export interface Refused { readonly refused: string }

/**
 * An archive entry's name as a `/`-separated path inside the target folder, or why it may not
 * be written. Backslashes count as separators (they are on Windows).
 */
export function safeEntryPath(name: string): string | Refused {
  if (!name || name.includes('\0')) return { refused: 'has an empty or NUL name' };
  const unified = name.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[A-Za-z]:/.test(unified)) return { refused: 'is an absolute path' };
  const parts = unified.split('/').filter(p => p !== '' && p !== '.');
  if (parts.includes('..')) return { refused: 'leaves the folder (..)' };
  return parts.join('/');
}

/**
 * A symbolic link at `entry` pointing to `target` (as stored in the archive) may only point
 * inside the folder. Lexical: the unpacker also checks where links really lead once written.
 */
export function linkStaysInside(entry: string, target: string): true | Refused {
  if (!target || target.includes('\0')) return { refused: 'is a link with an empty target' };
  const unified = target.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[A-Za-z]:/.test(unified)) return { refused: `links to an absolute path (${target})` };
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(entry), unified));
  if (resolved === '..' || resolved.startsWith('../')) return { refused: `links outside the folder (${target})` };
  return true;
}

/** True when `candidate` is `root` or inside it (both absolute, already resolved). */
export function isInside(root: string, candidate: string, pathApi: path.PlatformPath = path): boolean {
  const rel = pathApi.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !pathApi.isAbsolute(rel));
}

/**
 * The registry's `cmd` of a binary target (`./vibe-acp`, `./dist-package\cursor-agent.cmd`) as
 * a path inside the unpacked archive, or why it is not one.
 */
export function relativeCommand(cmd: string): string | Refused {
  const p = safeEntryPath(cmd);
  if (typeof p !== 'string') return { refused: `${p.refused}: ${JSON.stringify(cmd)}` };
  return p ? p : { refused: 'names no file' };
}

/** Limits on what one archive may unpack to. */
export const ARCHIVE_LIMITS = {
  /** Bytes written in all (a zip bomb stops here). */
  maxBytes: 4 * 1024 ** 3,
  maxEntries: 100_000,
} as const;
