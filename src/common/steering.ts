// ACP's steering extension, as claude-agent-acp and codex-acp ship it: an agent that answers
// `initialize` with `_meta.steering.supported: true` accepts `_session/steering` requests
// ({sessionId, prompt: ContentBlock[]}), which put a message into the turn that is running instead
// of queueing a new `session/prompt`. The running `session/prompt` keeps streaming (now answering
// that message too) and answers with the turn's stop reason as usual. The answer says where the
// message landed: `injected` (into the running turn), `startedNewTurn` (nothing was running and the
// agent started a turn of its own), `promptRequired` (nothing was running and, as this client asks
// with `_meta.steering.idleBehavior`, nothing was done: the client sends it as a prompt) or
// `failed`. The adapters do not echo the message back as a `user_message_chunk`: the client shows it.
import type * as acp from '@agentclientprotocol/sdk/unstable';

export const STEERING_METHOD = '_session/steering';

export interface SteeringRequest {
  readonly sessionId: string;
  readonly prompt: acp.ContentBlock[];
  readonly _meta: { readonly steering: { readonly idleBehavior: 'promptRequired' } };
}

export type SteeringOutcome = 'injected' | 'startedNewTurn' | 'promptRequired' | 'failed';

/** Whether the agent announced steering in its `initialize` answer (top-level `_meta`). */
export function supportsSteering(initialize: { readonly _meta?: unknown } | undefined): boolean {
  const meta = initialize?._meta;
  const steering = meta && typeof meta === 'object' ? (meta as { steering?: unknown }).steering : undefined;
  return !!steering && typeof steering === 'object' && (steering as { supported?: unknown }).supported === true;
}

/**
 * The request for `prompt` in `sessionId`. It asks the agent not to start a turn of its own when
 * its turn has just ended (a steer racing the end): the answer is then `promptRequired`.
 */
export function steeringRequest(sessionId: string, prompt: acp.ContentBlock[]): SteeringRequest {
  return { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } };
}

/** Where the message landed; anything not understood counts as `failed` (it was not delivered). */
export function steeringOutcome(response: unknown): SteeringOutcome {
  const outcome = response && typeof response === 'object' ? (response as { outcome?: unknown }).outcome : undefined;
  return outcome === 'injected' || outcome === 'startedNewTurn' || outcome === 'promptRequired' ? outcome : 'failed';
}
