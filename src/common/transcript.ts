// The conversation as the user sees it, built from ACP `session/update` notifications and local
// events (prompt sent, turn ended, agent crashed). Pure and incremental: every change returns the
// small list of operations the webview must apply, so a 10,000-chunk answer costs 10,000 appends,
// never 10,000 re-renders of the transcript.
import type { ContentBlock, SessionUpdate, ToolCallContent, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk';

export type ItemAction = 'restart' | 'retry' | 'openSettings' | 'authenticate' | 'showLog';

export interface ToolCallView {
  readonly toolCallId: string;
  readonly title: string;
  readonly kind: ToolKind;
  readonly status: ToolCallStatus | 'cancelled';
  /** Text shown in the card body: text content, diff headers, terminal references. */
  readonly body: string;
  readonly locations: readonly { path: string; line?: number | null }[];
}

export interface PermissionView {
  readonly requestId: string;
  readonly title: string;
  readonly options: readonly { optionId: string; name: string; kind: string }[];
  /** The answer once given: the chosen option's name, or "cancelled". */
  readonly outcome?: string;
}

export type Item =
  | { readonly kind: 'user'; readonly id: string; readonly text: string }
  | { readonly kind: 'agent'; readonly id: string; readonly text: string }
  | { readonly kind: 'thought'; readonly id: string; readonly text: string }
  | { readonly kind: 'tool'; readonly id: string; readonly tool: ToolCallView }
  | { readonly kind: 'permission'; readonly id: string; readonly permission: PermissionView }
  | { readonly kind: 'turnEnd'; readonly id: string; readonly stopReason: string }
  | { readonly kind: 'error'; readonly id: string; readonly message: string; readonly details?: string; readonly actions: readonly ItemAction[] }
  | { readonly kind: 'notice'; readonly id: string; readonly text: string };

export type TranscriptOp =
  | { readonly op: 'add'; readonly item: Item }
  | { readonly op: 'append'; readonly id: string; readonly text: string }
  | { readonly op: 'replace'; readonly item: Item };

type StreamKind = 'user' | 'agent' | 'thought';

export class Transcript {
  private readonly items: Item[] = [];
  private readonly index = new Map<string, number>();
  private nextId = 1;
  /** The message currently being streamed: chunks of the same kind and messageId extend it. */
  private open: { kind: StreamKind; id: string; messageId: string | null } | undefined;

  snapshot(): readonly Item[] {
    return this.items;
  }

  get(id: string): Item | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.items[i];
  }

  /** Applies one `session/update`. Unknown or display-less variants yield no operations. */
  applyUpdate(update: SessionUpdate): TranscriptOp[] {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        return this.stream('user', update.content, update.messageId);
      case 'agent_message_chunk':
        return this.stream('agent', update.content, update.messageId);
      case 'agent_thought_chunk':
        return this.stream('thought', update.content, update.messageId);
      case 'tool_call':
        return this.upsertTool(update.toolCallId, {
          title: update.title, kind: update.kind ?? 'other', status: update.status ?? 'pending',
          body: contentText(update.content), locations: update.locations ?? [],
        }, true);
      case 'tool_call_update': {
        const patch: Partial<Omit<ToolCallView, 'toolCallId'>> = {};
        if (update.title != null) Object.assign(patch, { title: update.title });
        if (update.kind != null) Object.assign(patch, { kind: update.kind });
        if (update.status != null) Object.assign(patch, { status: update.status });
        if (update.content != null) Object.assign(patch, { body: contentText(update.content) });
        if (update.locations != null) Object.assign(patch, { locations: update.locations });
        return this.upsertTool(update.toolCallId, patch, false);
      }
      default:
        return [];
    }
  }

  addUser(text: string): TranscriptOp[] {
    this.open = undefined;
    return [this.add({ kind: 'user', id: this.newId(), text })];
  }

  endTurn(stopReason: string): TranscriptOp[] {
    this.open = undefined;
    const ops: TranscriptOp[] = [];
    if (stopReason === 'cancelled') {
      // v1 has no "cancelled" tool status: unfinished calls are marked locally.
      for (const item of this.items) {
        if (item.kind === 'tool' && (item.tool.status === 'pending' || item.tool.status === 'in_progress')) {
          ops.push(this.replace({ ...item, tool: { ...item.tool, status: 'cancelled' } }));
        }
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
    return { id, ops: [this.add({ kind: 'permission', id, permission })] };
  }

  resolvePermission(id: string, outcome: string): TranscriptOp[] {
    const item = this.get(id);
    if (!item || item.kind !== 'permission' || item.permission.outcome !== undefined) return [];
    return [this.replace({ ...item, permission: { ...item.permission, outcome } })];
  }

  private stream(kind: StreamKind, content: ContentBlock, messageId: string | null | undefined): TranscriptOp[] {
    const text = blockText(content);
    const mid = messageId ?? null;
    const open = this.open;
    if (open && open.kind === kind && open.messageId === mid) {
      if (!text) return [];
      const i = this.index.get(open.id)!;
      const item = this.items[i] as Extract<Item, { kind: StreamKind }>;
      this.items[i] = { ...item, text: item.text + text };
      return [{ op: 'append', id: open.id, text }];
    }
    const id = this.newId();
    this.open = { kind, id, messageId: mid };
    return [this.add({ kind, id, text })];
  }

  private upsertTool(toolCallId: string, patch: Partial<Omit<ToolCallView, 'toolCallId'>>, isNew: boolean): TranscriptOp[] {
    this.open = undefined;
    const id = 'tool:' + toolCallId;
    const existing = this.get(id);
    if (existing && existing.kind === 'tool') {
      // Agents send `tool_call` twice for one id (generic, then refined): both are upserts.
      return [this.replace({ ...existing, tool: { ...existing.tool, ...patch } })];
    }
    const tool: ToolCallView = {
      toolCallId, title: patch.title ?? (isNew ? '' : 'Tool call'), kind: patch.kind ?? 'other',
      status: patch.status ?? 'pending', body: patch.body ?? '', locations: patch.locations ?? [],
    };
    return [this.add({ kind: 'tool', id, tool })];
  }

  private add(item: Item): TranscriptOp {
    this.index.set(item.id, this.items.length);
    this.items.push(item);
    return { op: 'add', item };
  }

  private replace(item: Item): TranscriptOp {
    this.items[this.index.get(item.id)!] = item;
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
    case 'resource': return 'text' in block.resource ? block.resource.text : `[binary resource ${block.resource.uri}]`;
    case 'image': return '[image]';
    case 'audio': return '[audio]';
    default: return '';
  }
}

function contentText(content: readonly ToolCallContent[] | null | undefined): string {
  if (!content) return '';
  return content.map(c => {
    switch (c.type) {
      case 'content': return blockText(c.content);
      case 'diff': return `${c.oldText == null ? 'Create' : 'Edit'} ${c.path}`;
      case 'terminal': return `Terminal ${c.terminalId}`;
      default: return '';
    }
  }).filter(Boolean).join('\n');
}
