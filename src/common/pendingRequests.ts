// Which conversation a request of the client's belongs to, while the agent has not answered it: an
// agent may tie a question (`elicitation/create` with `requestId`) to a request instead of a session.
// A question about a `session/prompt` (or any request naming a session) belongs to that session's
// conversation; one about `initialize`, `authenticate`, `session/new` or no request of ours belongs
// to no conversation (the agent's own). Pure; the connection feeds it the messages in both directions.

type Id = string | number;
interface Message { readonly id?: Id | null; readonly method?: string; readonly params?: unknown }

export class PendingRequests {
  private readonly sessions = new Map<Id, string | undefined>();

  /** A message the client sends. */
  outgoing(message: Message): void {
    if (typeof message.method !== 'string' || message.id == null) return;
    const id = (message.params as { sessionId?: unknown } | null | undefined)?.sessionId;
    this.sessions.set(message.id, typeof id === 'string' ? id : undefined);
  }

  /** A message read from the agent: a response ends its request. */
  incoming(message: Message): void {
    if (message.method === undefined && message.id != null) this.sessions.delete(message.id);
  }

  /** Whether a request of the client's with this id still waits for its response. */
  isPending(requestId: unknown): boolean {
    return (typeof requestId === 'string' || typeof requestId === 'number') && this.sessions.has(requestId);
  }

  /** The session a pending request of the client's names; undefined when it names none or is not pending. */
  sessionOf(requestId: unknown): string | undefined {
    return typeof requestId === 'string' || typeof requestId === 'number' ? this.sessions.get(requestId) : undefined;
  }
}
