// What a parallel run's agent is served: `fs/read_text_file` and `fs/write_text_file` inside its own
// worktree, and nothing else (no terminals: the agent runs its commands itself, in its cwd). The
// worktree is a scratch copy: writes land there directly, and are reviewed when the user applies the
// run (Agent Changes, Keep / Undo per hunk). A path outside the worktree is refused, whatever the
// agent says; so one run never reads or writes another run's files nor the user's.
import { promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { ConnectionServices } from '../../acp/clientServices';
import { chooseForm, decodeBytes, encodingLabel } from '../../common/fs/encoding';
import { FsErrors, refusal } from '../../common/fs/errors';

const MAX_READ_BYTES = 8 * 1024 * 1024;

export function worktreeServices(root: string): ConnectionServices {
  const realRoot = realpathSync(root);
  /** The real path of `requested`, when it is inside the worktree (links followed); else a refusal. */
  const inside = async (requested: string): Promise<string> => {
    if (!path.isAbsolute(requested)) throw FsErrors.relative(requested);
    const resolved = path.resolve(requested);
    // The deepest existing ancestor decides (a new file's folder may not exist yet).
    let probe = resolved;
    let real: string | undefined;
    for (;;) {
      try { real = path.join(await fs.realpath(probe), path.relative(probe, resolved)); break; } catch { /* goes up */ }
      const up = path.dirname(probe);
      if (up === probe) break;
      probe = up;
    }
    const rel = real === undefined ? '..' : path.relative(realRoot, real);
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep)[0] === '.git') throw refusal(`Access denied: ${requested} is outside this parallel run's worktree (${realRoot})`, 'outsideWorkspace', { path: requested });
    return real!;
  };
  return {
    fs: {
      async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
        const file = await inside(params.path);
        const stat = await fs.stat(file).catch(() => undefined);
        if (!stat) throw FsErrors.notFound(params.path);
        if (stat.isDirectory()) throw FsErrors.directory(params.path);
        // A FIFO's read waits for a writer forever (holding a libuv pool thread); a device may never end.
        if (!stat.isFile()) throw FsErrors.notRegular(params.path);
        if (stat.size > MAX_READ_BYTES) throw FsErrors.io(params.path, 'File too large');
        // Text only, as the workspace's file service serves it: a binary file or one not valid UTF-8 is refused.
        const bytes = await fs.readFile(file);
        const data = decodeBytes(bytes, chooseForm(bytes, { configured: 'utf8' }));
        if (data.kind === 'binary') throw data.reason === 'binary' ? FsErrors.binary(params.path) : FsErrors.encoding(params.path, encodingLabel(data.encoding));
        const text = data.text;
        if (!params.line && !params.limit) return { content: text };
        const lines = text.split('\n');
        const from = Math.max(0, (params.line ?? 1) - 1);
        return { content: lines.slice(from, params.limit ? from + params.limit : undefined).join('\n') };
      },
      async writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
        const file = await inside(params.path);
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, params.content, 'utf8');
        return {};
      },
    },
    dispose() { /* nothing held */ },
  };
}
