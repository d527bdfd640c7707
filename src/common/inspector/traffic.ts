// The protocol inspector's record of JSON-RPC traffic: a ring buffer bounded by message count and by
// bytes of JSON text, requests paired with their responses (latency), and the row summaries the
// inspector view renders. Pure: the connection taps it (src/acp/protocolTap.ts), the view reads it.
//
// A message is kept as its JSON text (redacted before it is stored, see redact.ts): what is in
// memory and what is exported is what was on the wire minus the secrets. It is parsed again only
// when shown, copied or exported.

export type Direction = 'in' | 'out';
export type MessageKind = 'request' | 'notification' | 'response' | 'error';

/** What the tap reads off a message object without serializing it. */
export interface MessageHead {
  readonly kind: MessageKind;
  readonly id?: string | number;
  readonly method?: string;
  readonly session?: string;
}

export interface TrafficEntry {
  readonly seq: number;
  /** Milliseconds since the epoch (the recorder's clock). */
  readonly time: number;
  /** Which connection (one per agent process), and its agent's name. */
  readonly conn: number;
  readonly agent: string;
  /** `in`: agent → Switchboard; `out`: Switchboard → agent. */
  readonly dir: Direction;
  readonly kind: MessageKind;
  readonly id?: string | number;
  /** A response carries its request's method and session. */
  method?: string;
  session?: string;
  /** The JSON text, redacted; cut when longer than the per-message cap (`truncated`). */
  readonly text: string;
  /** UTF-16 length of the full text (what the cap counts; ≈ bytes for ASCII JSON). */
  readonly size: number;
  readonly truncated: boolean;
  /** The seq of the paired request or response. */
  pair?: number;
  /** Response time, on both the request and its response. */
  latency?: number;
}

/** One row of the inspector's timeline (no JSON text: the view asks for it when a row is opened). */
export type TrafficRow = Readonly<Omit<TrafficEntry, 'text' | 'truncated'>>;

/** Reads the JSON-RPC envelope of a message object: never throws, whatever the agent sent. */
export function messageHead(message: unknown): MessageHead {
  const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  const method = typeof m.method === 'string' ? m.method : undefined;
  const params = m.params as Record<string, unknown> | undefined;
  const session = typeof params === 'object' && params !== null && typeof params.sessionId === 'string' ? params.sessionId : undefined;
  const kind: MessageKind = method !== undefined ? (id !== undefined ? 'request' : 'notification') : 'error' in m ? 'error' : 'response';
  return { kind, ...(id !== undefined ? { id } : {}), ...(method !== undefined ? { method } : {}), ...(session !== undefined ? { session } : {}) };
}

export interface TrafficLimits {
  /** At most this many messages… */
  readonly maxMessages: number;
  /** …and at most this many characters of JSON text in all; the oldest go first. */
  readonly maxChars: number;
  /** A longer message keeps its first `maxMessageChars` characters. */
  readonly maxMessageChars: number;
}

export const DEFAULT_LIMITS: TrafficLimits = { maxMessages: 200_000, maxChars: 64 * 1024 * 1024, maxMessageChars: 1024 * 1024 };

export class TrafficLog {
  /** Ring storage: entries[head..head+count) modulo capacity, grown on demand up to maxMessages. */
  private entries: (TrafficEntry | undefined)[] = [];
  private head = 0;
  private count = 0;
  private chars = 0;
  private nextSeq = 1;
  /** Requests waiting for their response, by connection, direction and id. */
  private readonly open = new Map<string, TrafficEntry>();

  constructor(private limits: TrafficLimits = DEFAULT_LIMITS) {}

  get size(): number { return this.count; }
  get totalChars(): number { return this.chars; }
  /** The seq of the oldest entry kept (the next one to be recorded when empty). */
  get firstSeq(): number { return this.count ? this.at(0)!.seq : this.nextSeq; }

  setLimits(limits: TrafficLimits): void {
    this.limits = limits;
    this.evict();
  }

  /** Records one message; returns the entry and the response's request when it paired one. */
  add(conn: number, agent: string, dir: Direction, head: MessageHead, text: string, time: number): { entry: TrafficEntry; paired?: TrafficEntry } {
    const truncated = text.length > this.limits.maxMessageChars;
    const entry: TrafficEntry = {
      seq: this.nextSeq++, time, conn, agent, dir, kind: head.kind,
      ...(head.id !== undefined ? { id: head.id } : {}),
      ...(head.method !== undefined ? { method: head.method } : {}),
      ...(head.session !== undefined ? { session: head.session } : {}),
      text: truncated ? text.slice(0, this.limits.maxMessageChars) : text, size: text.length, truncated,
    };
    let paired: TrafficEntry | undefined;
    if (head.kind === 'request' && head.id !== undefined) {
      this.open.set(key(conn, dir, head.id), entry);
    } else if ((head.kind === 'response' || head.kind === 'error') && head.id !== undefined) {
      const k = key(conn, dir === 'in' ? 'out' : 'in', head.id);
      paired = this.open.get(k);
      if (paired) {
        this.open.delete(k);
        paired.pair = entry.seq;
        entry.pair = paired.seq;
        paired.latency = entry.latency = Math.max(0, time - paired.time);
        entry.method = paired.method;
        entry.session = paired.session;
      }
    }
    this.push(entry);
    return { entry, ...(paired ? { paired } : {}) };
  }

  /** The entry with that seq, if still kept. */
  get(seq: number): TrafficEntry | undefined {
    if (!this.count) return undefined;
    const i = seq - this.at(0)!.seq;
    if (i < 0 || i >= this.count) return undefined;
    const e = this.at(i);
    return e?.seq === seq ? e : undefined;
  }

  /** Every entry kept, oldest first. */
  *all(): IterableIterator<TrafficEntry> {
    for (let i = 0; i < this.count; i++) yield this.at(i)!;
  }

  /** Entries with seq ≥ `from`, oldest first. */
  *since(from: number): IterableIterator<TrafficEntry> {
    const start = this.count ? Math.max(0, from - this.at(0)!.seq) : 0;
    for (let i = start; i < this.count; i++) yield this.at(i)!;
  }

  clear(): void {
    this.entries = [];
    this.head = this.count = this.chars = 0;
    this.open.clear();
  }

  private at(i: number): TrafficEntry | undefined {
    return this.entries[(this.head + i) % this.entries.length];
  }

  private push(entry: TrafficEntry): void {
    if (this.count === this.entries.length) {
      // Grow (unrolled to keep the oldest first), up to the message cap; at the cap the oldest goes.
      if (this.entries.length < this.limits.maxMessages) {
        const grown = new Array<TrafficEntry | undefined>(Math.min(this.limits.maxMessages, Math.max(1024, this.entries.length * 2)));
        for (let i = 0; i < this.count; i++) grown[i] = this.at(i);
        this.entries = grown;
        this.head = 0;
      } else {
        this.dropOldest();
      }
    }
    this.entries[(this.head + this.count) % this.entries.length] = entry;
    this.count++;
    this.chars += entry.text.length;
    this.evict();
  }

  private evict(): void {
    while (this.count > 0 && (this.count > this.limits.maxMessages || this.chars > this.limits.maxChars)) this.dropOldest();
  }

  private dropOldest(): void {
    const e = this.at(0)!;
    this.entries[this.head] = undefined;
    this.head = (this.head + 1) % this.entries.length;
    this.count--;
    this.chars -= e.text.length;
    if (e.kind === 'request' && e.id !== undefined && e.pair === undefined) {
      const k = key(e.conn, e.dir, e.id);
      if (this.open.get(k) === e) this.open.delete(k);
    }
  }
}

const key = (conn: number, dir: Direction, id: string | number) => `${conn}\u0000${dir}\u0000${typeof id}\u0000${id}`;

export function rowOf(e: TrafficEntry): TrafficRow {
  return {
    seq: e.seq, time: e.time, conn: e.conn, agent: e.agent, dir: e.dir, kind: e.kind, size: e.size,
    ...(e.id !== undefined ? { id: e.id } : {}),
    ...(e.method !== undefined ? { method: e.method } : {}),
    ...(e.session !== undefined ? { session: e.session } : {}),
    ...(e.pair !== undefined ? { pair: e.pair } : {}),
    ...(e.latency !== undefined ? { latency: e.latency } : {}),
  };
}

/** The message as shown expanded: indented JSON, or the text as it is when cut or not JSON. */
export function prettyText(e: TrafficEntry): string {
  if (e.truncated) return e.text;
  try { return JSON.stringify(JSON.parse(e.text), null, 2); } catch { return e.text; }
}

/** One JSON Lines record of an entry (export). */
export function jsonLine(e: TrafficEntry): string {
  let message: unknown;
  if (!e.truncated) { try { message = JSON.parse(e.text); } catch { /* kept as text below */ } }
  return JSON.stringify({
    seq: e.seq, time: new Date(e.time).toISOString(), agent: e.agent, direction: e.dir,
    ...(e.latency !== undefined ? { latencyMs: e.latency } : {}),
    ...(message !== undefined ? { message } : { text: e.text, truncated: e.truncated }),
  });
}
