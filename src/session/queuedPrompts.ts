// Messages typed while the agent works: each conversation's queue (QueuedPrompts, around the pure
// common/promptQueue.ts) and what sends from it (QueueRunner). When a turn ends, the head of the
// queue goes out as the next prompt; after a Stop (or a failed turn) the queue holds until the next
// turn starts. "Send now" steers a message into the running turn when the agent announced steering
// (`_session/steering`, common/steering.ts), or sends it as a prompt when no turn runs. A message
// the agent did not take stays queued, with the reason.
import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { NewPrompt, PromptQueue, QueuedPrompt } from '../common/promptQueue';
import type { QueueAction, QueueView } from '../common/protocol';
import { steeringOutcome, supportsSteering } from '../common/steering';
import { buildPrompt } from '../host/promptBuilder';
import { errorMessage as describe } from '../common/errorText';
import type { AgentRuntime } from './agentRuntime';

/**
 * What the queue needs of a conversation. ChatSession is one; declared here so that the queue does
 * not import the session that holds it (no import circle).
 */
export interface QueueTab {
  readonly queue: QueuedPrompts;
  readonly busy: boolean;
  readonly inTurn: boolean;
  readonly runtime: AgentRuntime | undefined;
  readonly sessionId?: string;
  readonly agentName: string;
  addSteered(text: string): void;
}

/** One conversation's queue; listeners hear of every change (the chat view shows it). */
export class QueuedPrompts extends Disposable {
  private readonly state = new PromptQueue();
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onChange = this.changeEmitter.event;

  get items(): readonly QueuedPrompt[] { return this.state.items; }
  get size(): number { return this.state.size; }
  get paused(): boolean { return this.state.paused; }

  update<T>(change: (queue: PromptQueue) => T): T {
    const result = change(this.state);
    this.changeEmitter.fire();
    return result;
  }

  /** A turn starts: a held queue goes on (its messages follow this turn). */
  turnStarted(): void {
    if (this.paused) this.update(q => q.resume());
  }

  /**
   * A turn ended. Stopped by the user or failed: the queue holds, and the conversation says so
   * (the returned notice). Ended otherwise: the caller sends the next message.
   */
  turnEnded(how: 'ended' | 'stopped' | 'failed'): string | undefined {
    if (how === 'ended' || !this.size) return undefined;
    this.update(q => q.pause());
    return how === 'stopped'
      ? vscode.l10n.t('Stopped. The queued messages were not sent: they stay queued and follow your next prompt, or use Send now.')
      : vscode.l10n.t('The queued messages were not sent: they stay queued and follow your next prompt, or use Send now.');
  }
}

/** Sends one message as a prompt in a conversation; resolves when its turn ended ('notSent': it never reached the agent). */
export type PromptSender<T extends QueueTab> = (tab: T, prompt: QueuedPrompt) => Promise<'sent' | 'notSent'>;

export class QueueRunner<T extends QueueTab> {
  constructor(private readonly sendPrompt: PromptSender<T>, private readonly log: Logger) {}

  add(tab: T, prompt: NewPrompt): void {
    tab.queue.update(q => q.add(prompt));
  }

  view(tab: T): QueueView {
    return {
      items: tab.queue.items.map(i => ({
        id: i.id, text: i.text, mentions: i.mentions, images: i.images.length, editing: !!i.editing, steering: !!i.steering,
        ...(i.error ? { error: i.error } : {}),
      })),
      paused: tab.queue.paused,
      sendNow: !tab.busy ? 'prompt' : canSteer(tab) ? 'steer' : 'none',
    };
  }

  /** The conversation is idle (its turn ended, or what held the queue is gone): the next message goes out. */
  drain(tab: T): void {
    if (tab.busy || !tab.queue.size) return;
    const next = tab.queue.update(q => q.takeNext());
    if (next) void this.send(tab, next);
  }

  /** Nothing is sent by itself until a turn starts (the prompt before them never reached the agent). */
  hold(tab: T): void {
    if (tab.queue.size && !tab.queue.paused) tab.queue.update(q => q.pause());
  }

  async act(tab: T, id: string, action: QueueAction): Promise<void> {
    switch (action) {
      case 'edit': tab.queue.update(q => q.beginEdit(id)); return;
      case 'cancelEdit': tab.queue.update(q => q.endEdit(id)); break;
      case 'remove': tab.queue.update(q => q.remove(id)); break;
      case 'sendNow': await this.sendNow(tab, id); return;
    }
    this.drain(tab);
  }

  /** The edited text of a message (an empty one removes it). */
  save(tab: T, id: string, text: string): void {
    tab.queue.update(q => q.endEdit(id, text));
    this.drain(tab);
  }

  private async sendNow(tab: T, id: string): Promise<void> {
    if (!tab.busy) {
      const taken = tab.queue.update(q => q.take(id));
      if (taken) await this.send(tab, taken);
    } else if (canSteer(tab)) {
      await this.steer(tab, id);
    }
  }

  private async send(tab: T, prompt: QueuedPrompt): Promise<void> {
    if ((await this.sendPrompt(tab, prompt)) === 'notSent') tab.queue.update(q => q.putBack(prompt));
  }

  /** `_session/steering`: into the running turn; shown in the conversation where it was delivered. */
  private async steer(tab: T, id: string): Promise<void> {
    const runtime = tab.runtime;
    const sessionId = tab.sessionId;
    const prompt = runtime && sessionId ? tab.queue.update(q => q.beginSteer(id)) : undefined;
    if (!runtime || !sessionId || !prompt) return;
    try {
      const built = await buildPrompt(prompt.text, prompt.mentions, prompt.images, runtime.capabilities.promptCapabilities ?? {});
      if ('refused' in built) {
        tab.queue.update(q => q.notSteered(id, built.refused));
        return;
      }
      const outcome = steeringOutcome(await runtime.connection.steer(sessionId, built.blocks));
      this.log.info(`${tab.agentName} answered _session/steering: ${outcome}`);
      if (outcome === 'injected' || outcome === 'startedNewTurn') {
        tab.queue.update(q => q.steered(id));
        tab.addSteered(prompt.text);
      } else {
        // promptRequired: the turn had just ended; the message goes out as the next prompt.
        tab.queue.update(q => q.notSteered(id, outcome === 'failed' ? vscode.l10n.t('{0} did not take the message into its running turn.', tab.agentName) : undefined));
      }
    } catch (err) {
      this.log.warn(`_session/steering failed: ${describe(err)}`);
      tab.queue.update(q => q.notSteered(id, vscode.l10n.t('Not sent into the running turn: {0}', describe(err))));
    } finally {
      this.drain(tab);
    }
  }
}

/** A turn runs in the conversation and its agent announced steering. */
function canSteer(tab: QueueTab): boolean {
  return tab.inTurn && !!tab.runtime?.isRunning && supportsSteering(tab.runtime.info);
}
