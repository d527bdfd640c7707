// Follow the agent: which file and line a tool call points at, so the editor can show it. A tool
// call's `locations` come first (the first with an absolute path, its line), else the file of its
// first diff. A location already shown is not shown again (updates repeat them).

export interface FollowTarget {
  readonly path: string;
  /** 1-based, as the chat's own location links; absent: the file's start. */
  readonly line?: number;
}

/** The parts of a `tool_call` / `tool_call_update` update this reads (the agent's, unchecked). */
export interface ToolUpdateLike {
  readonly sessionUpdate: string;
  readonly locations?: unknown;
  readonly content?: unknown;
}

const isAbsolute = (p: string) => !p.includes('\u0000') && (p.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\'));

/** Where a tool call update points, if anywhere. */
export function followTarget(update: ToolUpdateLike): FollowTarget | undefined {
  if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return undefined;
  if (Array.isArray(update.locations)) {
    for (const l of update.locations as unknown[]) {
      const loc = l as { path?: unknown; line?: unknown };
      if (typeof loc?.path !== 'string' || !isAbsolute(loc.path)) continue;
      const line = typeof loc.line === 'number' && Number.isInteger(loc.line) && loc.line >= 1 ? loc.line : undefined;
      return line ? { path: loc.path, line } : { path: loc.path };
    }
  }
  if (Array.isArray(update.content)) {
    for (const c of update.content as unknown[]) {
      const d = c as { type?: unknown; path?: unknown };
      if (d?.type === 'diff' && typeof d.path === 'string' && isAbsolute(d.path)) return { path: d.path };
    }
  }
  return undefined;
}

/** The targets to show, in order: a new place each time. */
export class FollowTracker {
  private last: string | undefined;

  next(update: ToolUpdateLike): FollowTarget | undefined {
    const t = followTarget(update);
    if (!t) return undefined;
    const key = `${t.path}\u0000${t.line ?? ''}`;
    if (key === this.last) return undefined;
    this.last = key;
    return t;
  }

  /** Forgets what was shown (following starts again: the current place is shown anew). */
  reset(): void {
    this.last = undefined;
  }
}
