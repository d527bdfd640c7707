// The messages a user typed while the agent was working, in the order they were typed. Pure state:
// the session layer owns one per conversation (session/queuedPrompts.ts) and decides when to send;
// this only says what may be sent next. The head goes out as the next prompt when a turn ends; one
// message can instead be steered into the running turn ("Send now"); a message being edited or on
// its way into the turn holds the queue, so nothing overtakes it.
import type { PastedImage } from './protocol';

export interface QueuedPrompt {
  readonly id: string;
  readonly text: string;
  readonly mentions: readonly string[];
  readonly images: readonly PastedImage[];
  /** Open in the editor of the chat: it is not sent until the edit is saved or cancelled. */
  readonly editing?: true;
  /** Send now: on its way into the running turn. */
  readonly steering?: true;
  /** Why the last Send now did not reach the agent's turn. */
  readonly error?: string;
}

export type NewPrompt = Pick<QueuedPrompt, 'text' | 'mentions' | 'images'>;

export class PromptQueue {
  private list: QueuedPrompt[] = [];
  private nextId = 1;
  /** Nothing is sent by itself (the user stopped the turn, or it failed) until a turn starts again. */
  private pausedValue = false;

  get items(): readonly QueuedPrompt[] { return this.list; }
  get size(): number { return this.list.length; }
  get paused(): boolean { return this.pausedValue; }

  add(prompt: NewPrompt): QueuedPrompt {
    const item: QueuedPrompt = { id: `q${this.nextId++}`, text: prompt.text, mentions: [...prompt.mentions], images: [...prompt.images] };
    this.list = [...this.list, item];
    return item;
  }

  /** The queue holds (nothing is sent by itself) until `resume`. */
  pause(): void { this.pausedValue = true; }
  resume(): void { this.pausedValue = false; }

  /** Opens a message for editing; false when it is gone or on its way to the agent. */
  beginEdit(id: string): boolean {
    const item = this.get(id);
    if (!item || item.steering) return false;
    this.set(id, { ...item, editing: true });
    return true;
  }

  /**
   * Closes the editor: with `text`, the message becomes that text (its error is forgotten; an empty
   * text removes it); without, it stays as it was. Undefined when the message is gone.
   */
  endEdit(id: string, text?: string): 'saved' | 'removed' | 'cancelled' | undefined {
    const item = this.get(id);
    if (!item || item.steering) return undefined;
    if (text !== undefined && !text.trim() && !item.images.length) {
      this.remove(id);
      return 'removed';
    }
    const { editing: _, error, ...rest } = item;
    this.set(id, text === undefined ? { ...rest, ...(error ? { error } : {}) } : { ...rest, text });
    return text === undefined ? 'cancelled' : 'saved';
  }

  /** Removes a message (not one on its way to the agent). */
  remove(id: string): QueuedPrompt | undefined {
    const item = this.get(id);
    if (!item || item.steering) return undefined;
    this.list = this.list.filter(i => i.id !== id);
    return item;
  }

  /**
   * Takes the message to send as the next prompt: the head, unless the queue is paused, the head is
   * being edited, or a message is on its way into the turn (its outcome decides what comes next).
   */
  takeNext(): QueuedPrompt | undefined {
    const head = this.list[0];
    if (!head || this.pausedValue || head.editing || this.list.some(i => i.steering)) return undefined;
    this.list = this.list.slice(1);
    return strip(head);
  }

  /** Takes one message out to send it as a prompt now (the agent is idle). */
  take(id: string): QueuedPrompt | undefined {
    const item = this.get(id);
    if (!item || item.steering || item.editing) return undefined;
    this.list = this.list.filter(i => i.id !== id);
    return strip(item);
  }

  /** Send now into the running turn: the message stays shown, marked, until the agent answers. */
  beginSteer(id: string): QueuedPrompt | undefined {
    const item = this.get(id);
    if (!item || item.steering || item.editing || this.list.some(i => i.steering)) return undefined;
    this.set(id, { ...strip(item), steering: true });
    return strip(item);
  }

  /** The agent took it into its turn: it leaves the queue. */
  steered(id: string): void {
    this.list = this.list.filter(i => i.id !== id || !i.steering);
  }

  /**
   * The agent did not take it. With an error it stays where it was, showing why; without (the
   * turn had just ended) it moves to the head, to go out as the next prompt.
   */
  notSteered(id: string, error?: string): void {
    const item = this.get(id);
    if (!item?.steering) return;
    const back: QueuedPrompt = { ...strip(item), ...(error ? { error } : {}) };
    this.list = error ? this.list.map(i => (i.id === id ? back : i)) : [back, ...this.list.filter(i => i.id !== id)];
  }

  /** A message taken out could not be sent: it goes back to the head and the queue holds. */
  putBack(item: QueuedPrompt, error?: string): void {
    this.list = [{ ...strip(item), ...(error ? { error } : {}) }, ...this.list.filter(i => i.id !== item.id)];
    this.pausedValue = true;
  }

  private get(id: string): QueuedPrompt | undefined {
    return this.list.find(i => i.id === id);
  }

  private set(id: string, item: QueuedPrompt): void {
    this.list = this.list.map(i => (i.id === id ? item : i));
  }
}

/** The message without its display state (editing, on its way, last error). */
function strip(item: QueuedPrompt): QueuedPrompt {
  return { id: item.id, text: item.text, mentions: item.mentions, images: item.images };
}
