// Plans as the agent keeps them (ACP plan operations, `clientCapabilities.plan`): `plan_update`
// replaces the plan of its `planId` (a checklist, a Markdown document or a file), `plan_removed`
// removes it, several plans coexist in the order they first came. The legacy `plan` update (one
// unnamed checklist) stays in SessionMeta.plan, rendered as before. Shapes are the SDK's
// (`@agentclientprotocol/sdk/unstable`), already validated by its schema when they reach here.
import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { escapeBidi } from './bidi';
import { BLOCK_MAX_CHARS, TITLE_MAX_CHARS, truncateText } from './truncate';

export type PlanView =
  | { readonly type: 'items'; readonly planId: string; readonly entries: readonly PlanEntry[] }
  /** Markdown from the agent: rendered sanitized by the webview (markdown-it without HTML, DOMPurify). */
  | { readonly type: 'markdown'; readonly planId: string; readonly content: string }
  /** A plan kept in a file: the chat links it; opening goes through the same checks as any link. */
  | { readonly type: 'file'; readonly planId: string; readonly uri: string };

/** At most this many plans are kept per session (an agent inventing ids cannot grow memory without bound). */
export const MAX_PLANS = 50;

type PlanOp = Extract<SessionUpdate, { sessionUpdate: 'plan_update' | 'plan_removed' }>;

/** The plans after `update`, or undefined when the update is not a plan operation. */
export function applyPlanUpdate(plans: readonly PlanView[], update: SessionUpdate): readonly PlanView[] | undefined {
  if (update.sessionUpdate !== 'plan_update' && update.sessionUpdate !== 'plan_removed') return undefined;
  const op = update as PlanOp;
  if (op.sessionUpdate === 'plan_removed') {
    const next = plans.filter(p => p.planId !== op.planId);
    return next.length === plans.length ? plans : next;
  }
  const view = planView(op.plan);
  if (!view) return plans;
  const i = plans.findIndex(p => p.planId === view.planId);
  if (i >= 0) return plans.map((p, j) => (j === i ? view : p));
  return [...plans, view].slice(-MAX_PLANS);
}

function planView(plan: Extract<PlanOp, { sessionUpdate: 'plan_update' }>['plan']): PlanView | undefined {
  const planId = truncateText(String(plan.planId), TITLE_MAX_CHARS);
  switch (plan.type) {
    case 'items':
      return { type: 'items', planId, entries: plan.entries.map(e => ({ ...e, content: escapeBidi(truncateText(e.content, TITLE_MAX_CHARS)) })) };
    case 'markdown':
      return { type: 'markdown', planId, content: truncateText(plan.content, BLOCK_MAX_CHARS, '\n') };
    case 'file':
      return { type: 'file', planId, uri: truncateText(plan.uri, TITLE_MAX_CHARS) };
    default:
      return undefined;
  }
}

/** The plan's file as a path, for its link's text: the path of a `file:` URI, else the URI as it is. */
export function planFileLabel(uri: string): string {
  if (!/^file:/i.test(uri)) return uri;
  try { return decodeURIComponent(new URL(uri).pathname); } catch { return uri; }
}
