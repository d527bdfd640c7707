// Every message an agent sends is applied or refused, and a refusal is logged once per kind (not once
// per message: an agent looping on a bad message must not flood the log). The ACP SDK validates the
// params of each method it knows against its schema, but offers no hook for a refusal: an invalid
// request is answered -32602 without a word, an invalid notification is printed to the console, one
// line each. So the app's registrations are wrapped: each params parser tells us when it refuses,
// and a notification handler that throws is contained (the next messages are handled).
// `session/update` would be validated first by the SDK's own session router, which throws before any
// handler of ours: those are screened as they arrive instead (`screen`, with the same schema, one
// schema per kind of update: updateSchema.ts), and handed on already parsed, once: the SDK's router
// (which only routes updates to sessions attached through the SDK's session helpers, which
// Switchboard does not use) passes a screened update on without parsing it again, and our handler
// takes it as it is. Were the router not found or not shaped as expected, it parses as before.
// `notification(spec, handler)` and `request(spec, handler)` are what `onNotification` /
// `onRequest` call on the app (SDK 2.4); were they renamed, nothing is wrapped and messages are
// handled as before — test/integration/fuzz.test.ts then fails on the missing log lines.
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { Logger } from '../common/logger';
import { describeThrown, OnceLog } from '../common/onceLog';
import { updateParser, type UpdateSchema } from './updateSchema';

type Parser = ((raw: unknown) => unknown) | { parse(raw: unknown): unknown } | undefined;
interface Spec { method: string; params?: Parser }
type Register = (spec: Spec, handler: (context: { params: unknown }) => unknown) => unknown;
/** A handler of the SDK's chain (SDK 2.4: `builder.handlers`); `handleMessage` answers `Handled.no(message)` or `Handled.yes()`. */
interface ChainHandler { handleMessage(message: { kind?: unknown; method?: unknown; params?: unknown }, cx: unknown): unknown; describe?(): string }

const REFUSED = Symbol('refused');

export class Refusals {
  private readonly refused = new OnceLog();
  /** The `session/update` params' parser (the SDK's schema, per kind), once the app registered its handler. */
  private parseUpdate: ((raw: unknown) => ReturnType<UpdateSchema['safeParse']>) | undefined;
  /** The params of the updates screened here (handed on parsed: the SDK's router need not parse them again). */
  private readonly screened = new WeakSet<object>();
  private readonly failed = new OnceLog();

  constructor(private readonly log: Logger) {}

  /** A message was refused (invalid params, unknown session or method): logged the first time of its kind. */
  refuse(kind: string, detail: string): void {
    const entry = this.refused.note(kind);
    if (entry === 'full') this.log.warn(l10n.t('The agent sent more kinds of messages that were refused; they are not logged.'));
    else if (entry) this.log.warn(l10n.t({ message: 'The agent sent a message that was refused ({0}): {1}. Further ones of this kind are not logged.', args: [entry.kind, detail], comment: '{0} names the kind of message (a method name), {1} what was wrong with it' }));
  }

  /** A handler threw on a message it should have applied or refused: logged the first time of its kind. */
  failure(kind: string, err: unknown): void {
    const entry = this.failed.note(`${kind}: ${describeThrown(err)}`);
    if (entry && entry !== 'full') this.log.error(l10n.t('Switchboard could not handle a message from the agent ({0}); it was skipped and the next ones are handled.', entry.kind));
  }

  /** Wraps the app's registrations (see above); call before any `onRequest` / `onNotification`. */
  watch(app: acp.ClientApp): void {
    const target = app as unknown as { notification?: Register; request?: Register };
    const notification = target.notification;
    const request = target.request;
    if (typeof notification === 'function') {
      target.notification = (spec, handler) => notification.call(app, spec.method === '*' ? spec : this.checked(spec, true), context => {
        if (context.params === REFUSED) return undefined;
        try {
          const result = handler(context);
          return result instanceof Promise ? result.catch(err => this.failure(spec.method, err)) : result;
        } catch (err) {
          this.failure(kindOf(spec.method, context.params), err);
          return undefined;
        }
      });
    }
    if (typeof request === 'function') target.request = (spec, handler) => request.call(app, spec.method === '*' ? spec : this.checked(spec, false), handler);
    this.skipRouterParse(app);
  }

  /**
   * The SDK's session router (first in the handler chain) parses every `session/update` again, only
   * to route it to sessions attached through the SDK's helpers (none here): one it was screened, it
   * is passed on as the router passes it (`Handled.no(message)`, whose shape is read off the router
   * itself). Anything unexpected, and the router is left as it is.
   */
  private skipRouterParse(app: acp.ClientApp): void {
    const handlers = (app as unknown as { builder?: { handlers?: ChainHandler[] } }).builder?.handlers;
    if (!Array.isArray(handlers)) return;
    const at = handlers.findIndex(h => typeof h?.handleMessage === 'function' && h.describe?.() === 'client-session-update-router');
    if (at < 0) return;
    const router = handlers[at];
    const probe = { kind: 'request', method: '$/switchboard/probe' };
    let passed: unknown;
    try { passed = router.handleMessage(probe, {}); } catch { return; }
    if (!passed || typeof passed !== 'object' || (passed as { handled?: unknown }).handled !== false || (passed as { message?: unknown }).message !== probe) return;
    handlers[at] = {
      handleMessage: (message, cx) => message?.kind === 'notification' && message.method === 'session/update' && typeof message.params === 'object' && message.params !== null && this.screened.has(message.params)
        ? { ...passed, message }
        : router.handleMessage(message, cx),
      describe: () => 'client-session-update-router',
    };
  }

  /**
   * An incoming message, in wire order, before the SDK dispatches it: a `session/update` the schema
   * refuses is logged (once per kind) and dropped (undefined); a valid one comes back parsed.
   */
  screen<M>(message: M, isPending: (id: unknown) => boolean): M | undefined {
    const parse = this.parseUpdate;
    const m = message as { method?: unknown; id?: unknown; params?: unknown };
    if (!m || typeof m !== 'object') return message;
    if (m.method === undefined && 'id' in m) {
      // A response: only to a request of ours still waiting (the SDK would print every other one).
      if (isPending(m.id)) return message;
      this.refuse(l10n.t('a response to no request'), JSON.stringify(m.id)?.slice(0, 80) ?? 'undefined');
      return undefined;
    }
    if (!parse || m.method !== 'session/update' || 'id' in m) return message;
    const parsed = parse(m.params);
    if (parsed.success) {
      if (parsed.data && typeof parsed.data === 'object') this.screened.add(parsed.data);
      return { ...message, params: parsed.data };
    }
    this.refuse(kindOf('session/update', m.params), describeIssue(parsed.error));
    return undefined;
  }

  /** The spec with its parser wrapped: a refusal is logged; a refused notification reaches its handler as REFUSED. */
  private checked(spec: Spec, isNotification: boolean): Spec {
    const parser = spec.params;
    if (spec.method === 'session/update' && parser && typeof parser === 'object' && typeof (parser as { safeParse?: unknown }).safeParse === 'function') {
      // Screened and parsed as it arrived (see above): taken as it is.
      this.parseUpdate = updateParser(parser as unknown as UpdateSchema);
      return { ...spec, params: raw => raw };
    }
    return {
      ...spec,
      params: (raw: unknown) => {
        try {
          return typeof parser === 'function' ? parser(raw) : parser ? parser.parse(raw) : raw;
        } catch (err) {
          this.refuse(kindOf(spec.method, raw), describeIssue(err));
          if (isNotification) return REFUSED;
          throw err; // the SDK answers -32602
        }
      },
    };
  }
}

/** The kinds of session update ACP v1 defines: any other word an agent sends is one kind, "other". */
const UPDATE_KINDS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan',
  'available_commands_update', 'current_mode_update', 'config_option_update', 'session_info_update', 'usage_update', 'notice',
  'compaction_update', 'compaction_summary_chunk', 'plan_update', 'plan_removed', 'subagent_update', 'session_message', 'session_message_chunk']);

/** A refused message's kind: its method, and for session/update the kind of update (never a word the agent chose). */
export function kindOf(method: string, raw: unknown): string {
  if (method !== 'session/update') return method;
  const update = raw && typeof raw === 'object' ? (raw as { update?: unknown }).update : undefined;
  const tag = update && typeof update === 'object' ? (update as { sessionUpdate?: unknown }).sessionUpdate : undefined;
  return `${method} ${typeof tag === 'string' && UPDATE_KINDS.has(tag) ? tag : 'of another kind'}`;
}

/** What a schema refused, first issue only (zod: its path and message), never the values sent. */
function describeIssue(err: unknown): string {
  const issues = (err as { issues?: { path?: unknown[]; message?: string }[] } | undefined)?.issues;
  const first = Array.isArray(issues) ? issues[0] : undefined;
  if (first) return `${(first.path ?? []).map(String).join('.') || 'params'}: ${String(first.message).slice(0, 200)}`;
  return describeThrown(err).slice(0, 200);
}
