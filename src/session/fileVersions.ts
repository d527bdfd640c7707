// Files written whole or not at all, and the version (inode, size, time) of each one read or
// written: two extension hosts may write the same files as a window reloads, and another version
// than the one a host knows is the other host's write (common/conversation/fileRace).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStamp } from '../common/conversation/fileRace';

export function stampOf(st: fs.Stats): FileStamp {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

/** The file's version now; undefined: there is none. */
export function statFile(file: string): FileStamp | undefined {
  try { return stampOf(fs.statSync(file)); } catch { return undefined; }
}

/** A file's text and the version of it that was read. Throws what failed. */
export function readStamped(file: string): { text: string; stamp: FileStamp } {
  const fd = fs.openSync(file, 'r');
  try {
    const stamp = stampOf(fs.fstatSync(fd));
    return { text: fs.readFileSync(fd, 'utf8'), stamp };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `file` whole or not at all: a temporary file beside it, then a rename. Returns the file's
 * status as written (the rename keeps it: another write since shows as another inode). Throws what failed.
 */
export function writeAtomically(file: string, text: string): fs.Stats {
  // Named by the process: two extension hosts (a reload) writing the file at once never share one.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, text, 'utf8');
    const written = fs.statSync(tmp);
    fs.renameSync(tmp, file);
    return written;
  } catch (err) {
    try { fs.rmSync(tmp, { force: true }); } catch { /* the folder is gone: nothing to remove */ }
    throw err;
  }
}

/** The first `bytes` bytes of `file` as text (less if it is shorter); undefined: it cannot be read. */
export function readHead(file: string, bytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(bytes);
    return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, bytes, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
