// Which paths an agent may read and write. Pure: the host resolves symlinks and `..` first
// (realpath), so a link inside the workspace that points outside is judged by where it points.
import * as nodePath from 'node:path';

export type OutsideWorkspacePolicy = 'ask' | 'allow' | 'deny';
export type AccessDecision = 'allow' | 'deny' | 'ask';

type PathApi = Pick<typeof nodePath, 'relative' | 'isAbsolute' | 'sep'>;

/** True for an absolute path on this platform (both `/x` and `C:\x` on Windows). */
export function isAbsolutePath(p: string, api: PathApi = nodePath): boolean {
  return typeof p === 'string' && p.length > 0 && api.isAbsolute(p);
}

/** True when `child` is `root` itself or below it. Both must be absolute and already resolved. */
export function isWithin(child: string, root: string, api: PathApi = nodePath): boolean {
  const rel = api.relative(root, child);
  if (rel === '') return true;
  if (api.isAbsolute(rel)) return false; // another drive on Windows
  return rel !== '..' && !rel.startsWith('..' + api.sep);
}

/** Inside any workspace root: served. Outside: whatever the setting says. */
export function decideAccess(realPath: string, realRoots: readonly string[], policy: OutsideWorkspacePolicy, api: PathApi = nodePath): AccessDecision {
  if (realRoots.some(root => isWithin(realPath, root, api))) return 'allow';
  return policy;
}

export function parseOutsideWorkspacePolicy(value: unknown): OutsideWorkspacePolicy {
  return value === 'allow' || value === 'deny' ? value : 'ask';
}

export type ReviewWritesMode = 'always' | 'never';

export function parseReviewWrites(value: unknown): ReviewWritesMode {
  return value === 'never' ? 'never' : 'always';
}
