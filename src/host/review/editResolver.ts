// Turns the snippet diffs of in-process edits (Claude: `oldText`/`newText` = old_string/new_string)
// into whole-file diffs before anything shows or reviews them, so permission cards, previews, the
// diff editor and the review all have context and real line numbers. The file is read the moment a
// tool call (or permission request) first names it — before the agent's change lands — and the
// result is kept per tool call, so later updates of the same call resolve the same way. An edit that
// cannot be found is marked `_meta.switchboard.unlocated`, never drawn at line 1.
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { claudeToolResponse, rawInputSnippets } from '../../common/review/adapterShapes';
import { DiffMeta, Located, locateEdit } from '../../common/review/snippet';

const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_CACHED = 200;

type ToolFields = Pick<acp.ToolCallUpdate, 'toolCallId' | 'status' | 'content' | 'rawInput' | '_meta'>;

export class EditResolver {
  /** toolCallId + path + snippet → how it resolved. */
  private readonly resolved = new Map<string, Located>();
  /** toolCallId + path → the file's text when the call was first seen before it completed (null: no file). */
  private readonly firstSeen = new Map<string, string | null>();
  private readonly statusOf = new Map<string, string>();

  /**
   * `decode`: a file's bytes as text in the encoding VS Code uses for it (undefined: binary, or not
   * valid in it); UTF-8 when not given (unit tests, which run without VS Code).
   */
  constructor(private readonly decode: (file: string, bytes: Uint8Array) => string | undefined = utf8) {}

  /**
   * A tool call or update with its diffs resolved to whole files (the same object when nothing
   * changes). `scope` keeps tool call ids of different conversations apart.
   */
  /**
   * The file's text on disk (never a buffer: the agent reads the disk), in its encoding; null when
   * missing, undefined when unreadable, binary or not valid in that encoding.
   */
  private readDisk(file: string): string | null | undefined {
    try {
      const st = statSync(file);
      // Never a FIFO or a device: a synchronous read of one would block the extension host.
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
      return this.decode(file, readFileSync(file));
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
    }
  }

  prepare<T extends ToolFields>(scope: string, update: T, asPermission = false): T {
    const callKey = `${scope}\0${update.toolCallId}`;
    if (update.status) remember(this.statusOf, callKey, update.status);
    if (!update.content?.some(c => c.type === 'diff')) return update;
    const status = update.status ?? this.statusOf.get(callKey);
    const phase = asPermission || status === 'pending' || status === 'in_progress' ? 'before' : status === 'completed' ? 'after' : 'unknown';
    const snippets = rawInputSnippets(update.rawInput);
    const response = claudeToolResponse(update._meta);
    let changed = false;
    const content = update.content.map(c => {
      if (c.type !== 'diff' || !path.isAbsolute(c.path)) return c;
      const fileKey = `${callKey}\0${c.path}`;
      if (phase === 'before' && !this.firstSeen.has(fileKey)) remember(this.firstSeen, fileKey, this.readDisk(c.path));
      if (c.oldText == null) {
        // "New file" (Claude's Write says so even over an existing file): the text seen before wins.
        const before = response && samePath(response.filePath, c.path) && response.originalFile !== undefined ? response.originalFile : this.firstSeen.get(fileKey);
        // Equal to the new text: read after the agent already wrote it, so no evidence of an old file.
        if (typeof before !== 'string' || before === c.newText) return c;
        changed = true;
        return { ...c, oldText: before };
      }
      const key = `${fileKey}\0${c.oldText}\0${c.newText}`;
      let located = this.resolved.get(key);
      if (!located) {
        const before = response && samePath(response.filePath, c.path) && response.originalFile !== undefined ? response.originalFile : undefined;
        // Only an edit the agent's input shows to be a snippet (Claude's old_string) can be "unlocated";
        // any other diff that is not found in the file is taken as the whole file, as sent.
        const snippet = snippets.find(e => e.oldText === c.oldText && e.newText === c.newText);
        const isSnippet = !!snippet;
        located = locateEdit({ oldText: c.oldText, newText: c.newText, replaceAll: !!snippet?.replaceAll }, { before, now: this.readDisk(c.path), phase });
        if (located.kind === 'unlocated' && !isSnippet) located = { kind: 'whole' };
        // An unlocated edit may still be found once more is known (the tool response): not cached.
        if (located.kind !== 'unlocated') remember(this.resolved, key, located);
      }
      if (located.kind === 'whole') return c;
      changed = true;
      const meta: DiffMeta = located.kind === 'located' ? { snippetLine: located.line } : { unlocated: located.reason };
      const withMeta = { ...c, _meta: { ...(c._meta ?? {}), switchboard: meta } };
      return located.kind === 'located' ? { ...withMeta, oldText: located.before, newText: located.after } : withMeta;
    });
    return changed ? { ...update, content } : update;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_CACHED) map.delete(map.keys().next().value!);
}

function utf8(_file: string, bytes: Uint8Array): string | undefined {
  const text = Buffer.from(bytes).toString('utf8');
  return text.includes('\0') ? undefined : text;
}

function samePath(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}
