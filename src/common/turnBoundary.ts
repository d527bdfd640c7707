// Which of an agent's session updates and requests it sent after it answered the prompt. The SDK
// resolves a prompt's response a few microtasks before it dispatches the messages read with it, and
// the session ends its turn a little later still, so when the extension host is busy, an update or an
// fs/terminal request the agent sent after its answer (a late one) can reach the session while the
// turn still looks open. The wire order decides instead: the connection counts each session's updates
// as they are read and as they are dispatched, notes how many it had read when the prompt's response
// arrived, and marks each request read after that response by its JSON-RPC id. Pure; the connection
// feeds it the messages in both directions.

type Id = string | number;
interface Message { readonly id?: Id | null; readonly method?: string; readonly params?: unknown }

const sessionOf = (params: unknown): string | undefined => {
  const id = (params as { sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof id === 'string' ? id : undefined;
};

const MAX_LATE_REQUESTS = 1000;
/** The requests whose handlers ask (the request gate): only they are marked, and each mark is taken. */
const GATED = new Set(['fs/read_text_file', 'fs/write_text_file', 'terminal/create']);

export class TurnBoundaries {
  private readonly read = new Map<string, number>();
  private readonly dispatched = new Map<string, number>();
  /** Updates read before the response of the session's last prompt (absent while a prompt runs). */
  private readonly boundary = new Map<string, number>();
  private readonly prompts = new Map<Id, string>();
  /** Requests of a session read after its last prompt was answered, until their handler asks. */
  private readonly lateRequests = new Set<Id>();

  /** A message the client sends (in order). */
  outgoing(message: Message): void {
    if (message.method !== 'session/prompt' || message.id == null) return;
    const session = sessionOf(message.params);
    if (session === undefined) return;
    this.prompts.set(message.id, session);
    this.boundary.delete(session);
  }

  /** A message read from the agent, in wire order, before the SDK dispatches it. */
  incoming(message: Message): void {
    if (message.method === 'session/update') {
      const session = sessionOf(message.params);
      if (session !== undefined) this.read.set(session, (this.read.get(session) ?? 0) + 1);
    } else if (message.method !== undefined && message.id != null && GATED.has(message.method)) {
      const session = sessionOf(message.params);
      if (session === undefined || !this.boundary.has(session)) return;
      // Bounded: a request whose handler never asks (refused before it) is forgotten in time.
      if (this.lateRequests.size >= MAX_LATE_REQUESTS) this.lateRequests.delete(this.lateRequests.values().next().value!);
      this.lateRequests.add(message.id);
    } else if (message.method === undefined && message.id != null) {
      const session = this.prompts.get(message.id);
      if (session === undefined) return;
      this.prompts.delete(message.id);
      this.boundary.set(session, this.read.get(session) ?? 0);
    }
  }

  /** A request is being handled: whether the agent sent it after answering its session's last prompt (asked once). */
  requestAfterAnswer(id: Id | null | undefined): boolean {
    return id != null && this.lateRequests.delete(id);
  }

  /** An update of `session` is being dispatched: whether the agent sent it after answering its last prompt. */
  dispatch(session: string): boolean {
    const n = (this.dispatched.get(session) ?? 0) + 1;
    this.dispatched.set(session, n);
    const boundary = this.boundary.get(session);
    return boundary !== undefined && n > boundary;
  }
}
