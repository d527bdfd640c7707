// The conversation as the user sees it, built from ACP `session/update` notifications and local
// events (prompt sent, turn ended, agent crashed). Pure and incremental: every change returns the
// small list of operations the webview must apply, so a 10,000-chunk answer costs 10,000 appends,
// never 10,000 re-renders of the transcript.
import type { ContentBlock, SessionUpdate, ToolCallContent, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk/unstable';
import * as l10n from '@vscode/l10n';
import { escapeBidi } from './bidi';
import type { ChildView } from './childSessions';
import type { QuestionView } from './elicitation';
import { compactDiff, DiffPreview } from './diffPreview';
import { CommandOutput, commandOutput } from './review/adapterShapes';
import { diffMetaOf } from './review/snippet';
import { commandOf, parseAgentTerminalMeta } from './terminal/agentMeta';
import { MemoryBound, splitTurns, turnChars, turnsToArchive } from './turns';
import { BLOCK_MAX_CHARS, TITLE_MAX_CHARS, truncateText } from './truncate';

/** A message longer than this shows only its beginning in the chat; the full text opens in an editor. */
export const MESSAGE_DISPLAY_MAX_CHARS = 100_000;

export type ItemAction = 'restart' | 'retry' | 'openSettings' | 'authenticate' | 'showLog';

export type ToolContentView =
  | { readonly type: 'text'; readonly text: string }
  | {
    readonly type: 'diff'; readonly path: string; readonly isNew: boolean; readonly preview: DiffPreview;
    /** A snippet edit that could not be found in the file: shown bare, without line numbers, and why. */
    readonly unlocated?: string;
    /** Its index in the tool call's content as the agent sent it ("open diff" finds the full texts by it). */
    readonly index?: number;
  }
  | { readonly type: 'terminal'; readonly terminalId: string };

export interface ToolCallView {
  readonly toolCallId: string;
  readonly title: string;
  readonly kind: ToolKind;
  /**
   * The agent's status, or ours: 'cancelled' (the turn was stopped before the call finished),
   * 'unfinished' (the turn ended with no final status for it: no spinner is left running).
   */
  readonly status: ToolCallStatus | 'cancelled' | 'unfinished';
  readonly content: readonly ToolContentView[];
  readonly locations: readonly { path: string; line?: number | null }[];
  /** Raw input/output as pretty JSON, bounded; shown behind a disclosure. */
  readonly rawInput?: string;
  readonly rawOutput?: string;
  /** Command output the agent carried only in rawOutput (Codex), shown like terminal output. */
  readonly output?: CommandOutput;
  /** A command the agent runs itself (`_meta.terminal_*`): its output lives in the host, under `key`. */
  readonly agentTerminal?: AgentTerminalView;
}

export interface AgentTerminalView {
  /** The host's name for its output (the tool call's item id in its session). */
  readonly key: string;
  /** The agent's id for it. */
  readonly terminalId: string;
  readonly command?: string;
  readonly cwd?: string;
  readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
}

/** A `notice` update's severity; anything else the agent sends is shown as info. */
export type NoticeSeverity = 'info' | 'warning' | 'error';

/** A question's option as the card shows it; `misleading` when its name says the opposite of its kind. */
export interface PermissionOptionView { readonly optionId: string; readonly name: string; readonly kind: string; readonly misleading?: boolean }

export interface PermissionView {
  readonly requestId: string;
  readonly title: string;
  /** What the agent wants to do (e.g. the diff of an edit), when the request carries it. */
  readonly content?: readonly ToolContentView[];
  readonly options: readonly PermissionOptionView[];
  /** The answer once given: what the chosen option did (see describeChoice), or "cancelled". */
  readonly outcome?: string;
  /** The kind of the chosen option: what the answer granted. */
  readonly outcomeKind?: string;
  /** Asked outside a turn (a request that arrived after the turn ended). */
  readonly late?: boolean;
  /**
   * The status of the tool call whose diff this card took (see addPermission), once the agent
   * reported one after the request: the card then says whether the edit was written.
   */
  readonly toolStatus?: ToolCallView['status'];
  /** Asked by a child agent (a helper the agent started): its title and task, shown on the card. */
  readonly from?: { readonly title: string; readonly task?: string };
}

export type Item = ItemKinds & {
  /** Part of the transcript of child session `inChild` (a helper agent): shown under its card. */
  readonly inChild?: string;
};

type ItemKinds =
  | { readonly kind: 'user'; readonly id: string; readonly text: string }
  | { readonly kind: 'agent'; readonly id: string; readonly text: string; readonly late?: boolean }
  | { readonly kind: 'thought'; readonly id: string; readonly text: string; readonly late?: boolean }
  | { readonly kind: 'tool'; readonly id: string; readonly tool: ToolCallView; readonly late?: boolean }
  | { readonly kind: 'permission'; readonly id: string; readonly permission: PermissionView }
  | { readonly kind: 'question'; readonly id: string; readonly question: QuestionView }
  | { readonly kind: 'turnEnd'; readonly id: string; readonly stopReason: string }
  | { readonly kind: 'error'; readonly id: string; readonly message: string; readonly details?: string; readonly actions: readonly ItemAction[] }
  | {
    readonly kind: 'notice'; readonly id: string; readonly text: string;
    /** A `notice` from the agent: its severity and description (Switchboard's own notices have none). */
    readonly severity?: NoticeSeverity; readonly details?: string;
  }
  /** Context compaction (`compaction_update` / `compaction_summary_chunk`): one entry per compactionId. */
  | { readonly kind: 'compaction'; readonly id: string; readonly status: string; readonly summary: string; readonly error?: string }
  /** A child agent's card (common/childSessions.ts); its own items follow with `inChild` set to its session id. */
  | { readonly kind: 'child'; readonly id: string; readonly child: ChildView }
  /** A message between sessions (`session_message` / `session_message_chunk`): who sent it to whom. */
  | { readonly kind: 'sessionMessage'; readonly id: string; readonly from: string; readonly to: string; readonly text: string };

export type TranscriptOp =
  | { readonly op: 'add'; readonly item: Item }
  | { readonly op: 'append'; readonly id: string; readonly text: string }
  | { readonly op: 'replace'; readonly item: Item };

type StreamKind = 'user' | 'agent' | 'thought';

export class Transcript {
  private readonly items: Item[] = [];
  /** Item id → its position in `items` plus `dropped` (taking old turns out touches only theirs). */
  private readonly index = new Map<string, number>();
  /** How many items were taken from the front of `items` (takeOldTurns). */
  private dropped = 0;
  private nextId = 1;
  /** The message currently being streamed: chunks of the same kind and messageId extend it. */
  private open: { kind: StreamKind; id: string; messageId: string | null; late: boolean } | undefined;
  /**
   * Tool-call ids are scoped to their session: each session the tab talks to gets a new scope, so
   * an id an agent reuses in a new session adds a card instead of rewriting an old one.
   */
  private scope = 0;
  private scopeSession: string | undefined;
  /** toolCallId → the late card (a tool call touched after its turn ended); cleared by each turn. */
  private readonly lateTools = new Map<string, string>();

  /** A transcript that continues from saved items (a window reload restores the conversation). */
  static from(items: readonly Item[]): Transcript {
    const t = new Transcript();
    for (const item of items) t.add(item);
    t.nextId = items.reduce((max, i) => Math.max(max, Number(/^i(\d+)$/.exec(i.id)?.[1] ?? 0)), 0) + 1;
    // Restored cards belong to sessions of the past: whatever comes next never rewrites them.
    t.scope = items.reduce((max, i) => Math.max(max, i.kind === 'tool' ? Number(/^tool:(\d+):/.exec(i.id)?.[1] ?? 0) + 1 : 0), 0);
    return t;
  }

  /** The conversation continues in session `key` (one per session of one agent process); another key starts a new scope. */
  enterSession(key: string): void {
    if (this.scopeSession !== undefined && this.scopeSession !== key) this.scope++;
    this.scopeSession = key;
  }

  /** The item id of tool call `toolCallId` in the current session. */
  toolItemId(toolCallId: string): string {
    if (this.inChild !== undefined) return `tool:${this.scope}:${this.inChild}:${toolCallId}`;
    return this.scope === 0 ? `tool:${toolCallId}` : `tool:${this.scope}:${toolCallId}`;
  }

  /** The child session whose update is being applied (applyInChild), else undefined. */
  private inChild: string | undefined;
  /** Each child's message being streamed (the parent's is `open`). */
  private readonly childOpen = new Map<string, Transcript['open']>();

  /**
   * Applies an update of child session `childId` (a helper agent): its items carry `inChild` and
   * its streams, tool calls and late state are its own, never mixed with the parent's.
   */
  applyInChild(childId: string, update: SessionUpdate): TranscriptOp[] {
    const parentOpen = this.open;
    this.open = this.childOpen.get(childId);
    this.inChild = childId;
    try {
      return this.applyUpdate(update, false);
    } finally {
      this.childOpen.set(childId, this.open);
      this.open = parentOpen;
      this.inChild = undefined;
    }
  }

  /** The card of a child agent: added where it was announced (under its parent's card for a nested child), then replaced. */
  upsertChild(child: ChildView): TranscriptOp[] {
    const id = `child:${this.scope}:${child.sessionId}`;
    const existing = this.get(id);
    if (existing) return [this.replace({ ...existing, kind: 'child', id, child } as Item)];
    const op = this.add({ kind: 'child', id, child, ...(child.depth > 1 ? { inChild: child.parentSessionId } : {}) });
    return [op];
  }

  /**
   * A message between sessions, shown in the transcript of session `inChild` (undefined: the
   * conversation's own): `session_message` sets who and what (content replaces), `session_message_chunk` appends.
   */
  sessionMessage(inChild: string | undefined, messageId: string, patch: { from?: string; to?: string; text?: string; append?: string }): TranscriptOp[] {
    const key = `${this.scope}:${inChild ?? ''}:${messageId}`;
    const existing = this.get(this.sessionMessages.get(key) ?? '');
    if (existing?.kind === 'sessionMessage') {
      const text = patch.text ?? existing.text + (patch.append ?? '');
      if (patch.append && patch.text === undefined && patch.from === undefined && patch.to === undefined) {
        const i = this.at(existing.id)!;
        this.items[i] = { ...existing, text };
        return [{ op: 'append', id: existing.id, text: patch.append }];
      }
      return [this.replace({ ...existing, from: patch.from ?? existing.from, to: patch.to ?? existing.to, text })];
    }
    const unknown = '?';
    const item: Item = {
      kind: 'sessionMessage', id: this.newId(), from: patch.from ?? unknown, to: patch.to ?? unknown,
      text: patch.text ?? patch.append ?? '', ...(inChild !== undefined ? { inChild } : {}),
    };
    this.sessionMessages.set(key, item.id);
    if (inChild === undefined) this.open = undefined;
    else this.childOpen.delete(inChild);
    return [this.add(item)];
  }

  /** `scope:inChild:messageId` → the item of that message between sessions. */
  private readonly sessionMessages = new Map<string, string>();

  snapshot(): readonly Item[] {
    return this.items;
  }

  /**
   * Takes the oldest whole turns out of the transcript when it holds more than `bound` allows (see
   * turnsToArchive): they are returned, oldest first, for the caller to keep on disk. The turn
   * being streamed is never among them.
   */
  takeOldTurns(bound?: MemoryBound): Item[][] {
    const turns = splitTurns(this.items);
    const n = turnsToArchive(turns.map(turnChars), bound);
    if (!n) return [];
    const old = turns.slice(0, n);
    const count = old.reduce((sum, t) => sum + t.length, 0);
    for (let i = 0; i < count; i++) this.index.delete(this.items[i].id);
    this.items.splice(0, count);
    this.dropped += count;
    return old;
  }

  get(id: string): Item | undefined {
    const i = this.at(id);
    return i === undefined ? undefined : this.items[i];
  }

  /** The position of item `id` in `items`. */
  private at(id: string): number | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : i - this.dropped;
  }

  /**
   * Applies one `session/update`. Unknown or display-less variants yield no operations. `late`: it
   * arrived after its turn ended; it is shown as late and never changes what the turn showed.
   */
  applyUpdate(update: SessionUpdate, late = false): TranscriptOp[] {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        return this.stream('user', update.content, update.messageId, late);
      case 'agent_message_chunk':
        return this.stream('agent', update.content, update.messageId, late);
      case 'agent_thought_chunk':
        return this.stream('thought', update.content, update.messageId, late);
      case 'tool_call':
        return this.upsertTool(update.toolCallId, {
          title: shownTitle(update.title), kind: update.kind ?? 'other', status: update.status ?? 'pending',
          content: contentViews(update.content), locations: shownLocations(update.locations),
          rawInput: rawJson(update.rawInput), rawOutput: rawJson(update.rawOutput), output: commandOutput(update.rawOutput),
          ...this.agentTerminalPatch(update),
        }, true, late);
      case 'tool_call_update': {
        const patch: Partial<Omit<ToolCallView, 'toolCallId'>> = { ...this.agentTerminalPatch(update) };
        if (update.title != null) Object.assign(patch, { title: shownTitle(update.title) });
        if (update.kind != null) Object.assign(patch, { kind: update.kind });
        if (update.status != null) Object.assign(patch, { status: update.status });
        if (update.content != null) Object.assign(patch, { content: contentViews(update.content) });
        if (update.locations != null) Object.assign(patch, { locations: shownLocations(update.locations) });
        if (update.rawInput !== undefined) Object.assign(patch, { rawInput: rawJson(update.rawInput) });
        if (update.rawOutput !== undefined) Object.assign(patch, { rawOutput: rawJson(update.rawOutput), output: commandOutput(update.rawOutput) });
        // Output of a command the agent runs: the host keeps it; the card is unchanged.
        if (Object.keys(patch).length === 0 && this.get(this.toolItemId(update.toolCallId))) return [];
        return this.upsertTool(update.toolCallId, patch, false, late);
      }
      case 'notice': {
        const severity: NoticeSeverity = update.severity === 'warning' || update.severity === 'error' ? update.severity : 'info';
        const details = typeof update.description === 'string' && update.description ? escapeBidi(bounded(update.description, NOTICE_MAX_CHARS)) : undefined;
        this.open = undefined;
        return [this.add({ kind: 'notice', id: this.newId(), text: escapeBidi(bounded(update.title, 2000)), severity, ...(details ? { details } : {}) })];
      }
      case 'compaction_update':
      case 'compaction_summary_chunk': {
        if (typeof update.compactionId !== 'string') return [];
        this.open = undefined;
        const key = `${this.scope}:${update.compactionId}`;
        const existing = this.get(this.compactions.get(key) ?? '');
        const base = existing?.kind === 'compaction' ? existing : { kind: 'compaction' as const, id: this.newId(), status: 'in_progress', summary: '' };
        const next = update.sessionUpdate === 'compaction_summary_chunk'
          ? { ...base, summary: bounded(base.summary + escapeBidi(blockText(update.content)), NOTICE_MAX_CHARS) }
          : {
            ...base, status: String(update.status),
            ...(update.summary !== undefined ? { summary: bounded(escapeBidi((update.summary ?? []).map(blockText).join('')), NOTICE_MAX_CHARS) } : {}),
            ...(typeof update.error === 'string' ? { error: escapeBidi(bounded(update.error, 2000)) } : {}),
          };
        if (existing) return [this.replace(next)];
        this.compactions.set(key, next.id);
        return [this.add(next)];
      }
      default:
        return [];
    }
  }

  /** compactionId (scoped to its session) → its item. */
  private readonly compactions = new Map<string, string>();

  /** The card's view of a command the agent runs itself, from the update's `_meta` and rawInput. */
  private agentTerminalPatch(update: { toolCallId: string; _meta?: unknown; rawInput?: unknown }): { agentTerminal?: AgentTerminalView } {
    const existing = this.get(this.toolItemId(update.toolCallId));
    const before = existing?.kind === 'tool' ? existing.tool.agentTerminal : undefined;
    const meta = parseAgentTerminalMeta(update._meta);
    if (!meta && !before) return {};
    const command = meta?.command ?? commandOf(update.rawInput);
    const next: AgentTerminalView = {
      key: this.toolItemId(update.toolCallId),
      terminalId: before?.terminalId ?? meta!.terminalId,
      ...(command ? { command: escapeBidi(truncateText(command, TITLE_MAX_CHARS)) } : before?.command ? { command: before.command } : {}),
      ...(meta?.cwd ? { cwd: escapeBidi(truncateText(meta.cwd, TITLE_MAX_CHARS)) } : before?.cwd ? { cwd: before.cwd } : {}),
      ...(meta?.exit ? { exit: meta.exit } : before?.exit ? { exit: before.exit } : {}),
    };
    return before && JSON.stringify(before) === JSON.stringify(next) ? {} : { agentTerminal: next };
  }

  addUser(text: string): TranscriptOp[] {
    this.open = undefined;
    this.lateTools.clear();
    return [this.add({ kind: 'user', id: this.newId(), text })];
  }

  /** `working`: child sessions still at work (their calls keep their status, unless the turn was cancelled). */
  endTurn(stopReason: string, working: ReadonlySet<string> = new Set()): TranscriptOp[] {
    this.open = undefined;
    const ops: TranscriptOp[] = [];
    // v1 has no "cancelled" tool status, and an agent may end its turn without finishing a call it
    // announced: such calls are marked locally, so no card keeps spinning after the turn.
    const status = stopReason === 'cancelled' ? 'cancelled' : 'unfinished';
    for (const item of this.items) {
      if (item.kind === 'tool' && (item.tool.status === 'pending' || item.tool.status === 'in_progress')
        && !(stopReason !== 'cancelled' && item.inChild !== undefined && working.has(item.inChild))) {
        ops.push(this.replace({ ...item, tool: { ...item.tool, status } }));
      }
    }
    ops.push(this.add({ kind: 'turnEnd', id: this.newId(), stopReason }));
    return ops;
  }

  addError(message: string, details: string | undefined, actions: readonly ItemAction[]): TranscriptOp[] {
    this.open = undefined;
    return [this.add({ kind: 'error', id: this.newId(), message, details, actions })];
  }

  addNotice(text: string): TranscriptOp[] {
    this.open = undefined;
    return [this.add({ kind: 'notice', id: this.newId(), text })];
  }

  addPermission(permission: PermissionView): { id: string; ops: TranscriptOp[] } {
    this.open = undefined;
    const id = this.newId();
    const ops: TranscriptOp[] = [];
    // Each edit's diff is shown once: on the permission card (where the decision is made), not
    // again on the tool card of the same call.
    const diffs = (permission.content ?? []).filter(c => c.type === 'diff').map(diffKey);
    if (diffs.length) {
      const shown = this.permissionDiffs.get(permission.requestId) ?? new Set<string>();
      diffs.forEach(k => shown.add(k));
      this.permissionDiffs.set(permission.requestId, shown);
      this.diffPermissions.set(permission.requestId, id);
      const tool = this.get(this.toolItemId(permission.requestId));
      if (tool?.kind === 'tool') {
        const content = this.withoutShownDiffs(permission.requestId, tool.tool.content);
        if (content.length !== tool.tool.content.length) ops.push(this.replace({ ...tool, tool: { ...tool.tool, content } }));
      }
    }
    ops.push(this.add({ kind: 'permission', id, permission }));
    return { id, ops };
  }

  /** toolCallId → the diffs its permission request showed. */
  private readonly permissionDiffs = new Map<string, Set<string>>();
  /** toolCallId → the item id of the permission card that shows its diffs. */
  private readonly diffPermissions = new Map<string, string>();

  /** The permission card that shows this tool call's diffs learns the call's new status. */
  private permissionFollows(toolCallId: string, status: ToolCallView['status'] | undefined): TranscriptOp[] {
    const id = this.diffPermissions.get(toolCallId);
    const item = id === undefined ? undefined : this.get(id);
    if (!status || item?.kind !== 'permission' || item.permission.toolStatus === status) return [];
    return [this.replace({ ...item, permission: { ...item.permission, toolStatus: status } })];
  }

  private withoutShownDiffs(toolCallId: string, content: readonly ToolContentView[]): readonly ToolContentView[] {
    const shown = this.permissionDiffs.get(toolCallId);
    return shown ? content.filter(c => c.type !== 'diff' || !shown.has(diffKey(c))) : content;
  }

  resolvePermission(id: string, outcome: string, outcomeKind?: string): TranscriptOp[] {
    const item = this.get(id);
    if (!item || item.kind !== 'permission' || item.permission.outcome !== undefined) return [];
    return [this.replace({ ...item, permission: { ...item.permission, outcome, ...(outcomeKind ? { outcomeKind } : {}) } })];
  }

  /** An elicitation card (see common/elicitation). */
  addQuestion(question: QuestionView): { id: string; ops: TranscriptOp[] } {
    this.open = undefined;
    const id = this.newId();
    return { id, ops: [this.add({ kind: 'question', id, question })] };
  }

  updateQuestion(id: string, patch: Partial<QuestionView>): TranscriptOp[] {
    const item = this.get(id);
    if (!item || item.kind !== 'question') return [];
    return [this.replace({ ...item, question: { ...item.question, ...patch } })];
  }

  private stream(kind: StreamKind, content: ContentBlock, messageId: string | null | undefined, late: boolean): TranscriptOp[] {
    const text = blockText(content);
    const mid = messageId ?? null;
    const open = this.open;
    if (open && open.kind === kind && open.messageId === mid && open.late === late) {
      if (!text) return [];
      const i = this.at(open.id)!;
      const item = this.items[i] as Extract<Item, { kind: StreamKind }>;
      this.items[i] = { ...item, text: item.text + text };
      return [{ op: 'append', id: open.id, text }];
    }
    const id = this.newId();
    this.open = { kind, id, messageId: mid, late };
    return [this.add(kind === 'user' || !late ? { kind, id, text } : { kind, id, text, late: true })];
  }

  private upsertTool(toolCallId: string, patch: Partial<Omit<ToolCallView, 'toolCallId'>>, isNew: boolean, late: boolean): TranscriptOp[] {
    this.open = undefined;
    if (patch.content) patch = { ...patch, content: this.withoutShownDiffs(toolCallId, patch.content) };
    const inTurn = this.get(this.toolItemId(toolCallId));
    // The agent's own terminal is shown from the host's buffer, not as a client terminal.
    const agentTerminal = patch.agentTerminal ?? (inTurn?.kind === 'tool' ? inTurn.tool.agentTerminal : undefined);
    if (agentTerminal) {
      const drop = (content: readonly ToolContentView[]) => content.filter(c => c.type !== 'terminal' || c.terminalId !== agentTerminal.terminalId);
      if (patch.content) patch = { ...patch, content: drop(patch.content) };
      else if (patch.agentTerminal && inTurn?.kind === 'tool') patch = { ...patch, content: drop(inTurn.tool.content) };
    }
    if (late) {
      // After its turn: a late card of its own (the finished turn's card stays as it was).
      const lateId = this.lateTools.get(toolCallId);
      const lateItem = lateId ? this.get(lateId) : undefined;
      const base = lateItem?.kind === 'tool' ? lateItem.tool : inTurn?.kind === 'tool' ? inTurn.tool : undefined;
      const tool = base ? { ...base, ...patch } : this.newTool(toolCallId, patch, isNew);
      if (lateItem) return [this.replace({ kind: 'tool', id: lateItem.id, tool, late: true })];
      const id = this.newId();
      this.lateTools.set(toolCallId, id);
      return [this.add({ kind: 'tool', id, tool, late: true })];
    }
    const id = this.toolItemId(toolCallId);
    const existing = inTurn;
    if (existing && existing.kind === 'tool') {
      // Agents send `tool_call` twice for one id (generic, then refined): both are upserts.
      return [this.replace({ ...existing, tool: { ...existing.tool, ...patch } }), ...this.permissionFollows(toolCallId, patch.status)];
    }
    return [this.add({ kind: 'tool', id, tool: this.newTool(toolCallId, patch, isNew) }), ...this.permissionFollows(toolCallId, patch.status)];
  }

  private newTool(toolCallId: string, patch: Partial<Omit<ToolCallView, 'toolCallId'>>, isNew: boolean): ToolCallView {
    return {
      toolCallId, title: patch.title ?? (isNew ? '' : l10n.t('Tool call')), kind: patch.kind ?? 'other',
      status: patch.status ?? 'pending', content: patch.content ?? [], locations: patch.locations ?? [],
      rawInput: patch.rawInput, rawOutput: patch.rawOutput,
      ...(patch.output ? { output: patch.output } : {}), ...(patch.agentTerminal ? { agentTerminal: patch.agentTerminal } : {}),
    };
  }

  private add(item: Item): TranscriptOp {
    if (this.inChild !== undefined && item.inChild === undefined) item = { ...item, inChild: this.inChild };
    this.index.set(item.id, this.items.length + this.dropped);
    this.items.push(item);
    return { op: 'add', item };
  }

  private replace(item: Item): TranscriptOp {
    this.items[this.at(item.id)!] = item;
    return { op: 'replace', item };
  }

  private newId(): string {
    return 'i' + this.nextId++;
  }
}

/** Display text of a content block; non-text blocks get a short placeholder. */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text': return block.text;
    case 'resource_link': return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource': return 'text' in block.resource ? block.resource.text
      : l10n.t({ message: '[binary resource {0}]', args: [block.resource.uri], comment: ['Stands in the chat for a binary file the agent sent; {0} is its URI.'] });
    case 'image': return l10n.t({ message: '[image]', comment: ['Stands in the chat for an image in a message.'] });
    case 'audio': return l10n.t({ message: '[audio]', comment: ['Stands in the chat for a sound in a message.'] });
    default: return '';
  }
}

export function contentViews(content: readonly ToolCallContent[] | null | undefined): ToolContentView[] {
  if (!content) return [];
  return content.flatMap((c, index): ToolContentView[] => {
    switch (c.type) {
      case 'content': return [{ type: 'text', text: truncateText(blockText(c.content), BLOCK_MAX_CHARS, '\n') }];
      case 'diff': {
        const unlocated = diffMetaOf(c)?.unlocated;
        return [{ type: 'diff', path: c.path, isNew: c.oldText == null, preview: compactDiff(c.oldText ?? '', c.newText, { lineNumbers: !unlocated }), index, ...(unlocated ? { unlocated } : {}) }];
      }
      case 'terminal': return [{ type: 'terminal', terminalId: c.terminalId }];
      default: return [];
    }
  });
}

const RAW_LIMIT = 20_000;

/**
 * A command line shown whole on a permission card: a fenced code block (line breaks, operators and
 * backticks kept as they are, never read as markdown), bidi controls escaped, bounded.
 */
export function commandView(line: string): ToolContentView {
  const run = Math.max(0, ...(line.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(Math.max(3, run + 1));
  return { type: 'text', text: `${fence}\n${escapeBidi(truncateText(line, BLOCK_MAX_CHARS, '\n'))}\n${fence}` };
}

/** A title as the card shows it: bidi controls escaped, cut to one readable line's worth. */
export function shownTitle(title: string): string {
  return escapeBidi(truncateText(String(title), TITLE_MAX_CHARS));
}

function shownLocations(locations: readonly { path: string; line?: number | null }[] | null | undefined): { path: string; line?: number | null }[] {
  return (locations ?? []).map(l => (typeof l?.path === 'string' && l.path.length > TITLE_MAX_CHARS ? { ...l, path: truncateText(l.path, TITLE_MAX_CHARS) } : l));
}
const NOTICE_MAX_CHARS = 100_000;

const bounded = (text: string, max: number): string => (text.length > max ? text.slice(0, max) + '…' : text);

function rawJson(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  try { text = typeof value === 'string' ? value : JSON.stringify(value, null, 2); } catch { return undefined; }
  return truncateText(text, RAW_LIMIT, '\n');
}

/** Identifies one diff across a permission request and its tool call (same file, same change). */
function diffKey(c: Extract<ToolContentView, { type: 'diff' }>): string {
  return `${c.path}\0${c.preview.added}\0${c.preview.removed}\0${c.preview.lines.join('\n')}`;
}
