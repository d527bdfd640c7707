// Everything about a session that is state rather than conversation: title, modes, config options,
// slash commands, context usage, the plan. Each ACP update replaces its part whole (as the spec
// says for plans, config options and commands); `null` clears a field.
import type { AvailableCommand, PlanEntry, SessionConfigOption, SessionMode, SessionModeState, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { applyPlanUpdate, PlanView } from './plans';
import { TITLE_MAX_CHARS, truncateStrings } from './truncate';

export interface SessionMeta {
  readonly title?: string;
  readonly modes?: { readonly currentModeId: string; readonly availableModes: readonly SessionMode[] };
  readonly configOptions: readonly SessionConfigOption[];
  readonly commands: readonly AvailableCommand[];
  readonly usage?: Usage;
  readonly plan: readonly PlanEntry[];
  /** Plans kept by id (`plan_update` / `plan_removed`, see common/plans.ts); absent until the first. */
  readonly plans?: readonly PlanView[];
}

/**
 * Context tokens used of the window's size (the conversation's own session), the cost so far (its
 * children's added), and its child agents' tokens apart: each child's last reported context use,
 * summed over `count` children (they never fill the conversation's own window).
 */
export interface Usage {
  readonly used: number;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
  readonly helpers?: { readonly tokens: number; readonly count: number };
}

export const EMPTY_META: SessionMeta = { configOptions: [], commands: [], plan: [] };

/** Initial meta from a `session/new` / `session/load` / `session/resume` response. */
export function metaFromResponse(
  base: SessionMeta,
  response: { modes?: SessionModeState | null; configOptions?: SessionConfigOption[] | null } | null | undefined,
): SessionMeta {
  if (!response) return base;
  // Every text the agent sends here reaches the view whole: cut like titles (common/truncate).
  return truncateStrings({
    ...base,
    modes: response.modes ? { currentModeId: response.modes.currentModeId, availableModes: response.modes.availableModes } : base.modes,
    configOptions: response.configOptions ?? base.configOptions,
  }, TITLE_MAX_CHARS);
}

/** The new meta if `update` changes it, else undefined (the update is not about meta); its texts cut like titles. */
export function applyMetaUpdate(meta: SessionMeta, update: SessionUpdate): SessionMeta | undefined {
  // Plans are bounded by common/plans.ts (a Markdown plan is a document, not a title).
  const plans = applyPlanUpdate(meta.plans ?? [], update);
  if (plans) return plans === meta.plans ? undefined : { ...meta, plans };
  const next = metaUpdate(meta, update);
  return next && truncateStrings(next, TITLE_MAX_CHARS);
}

function metaUpdate(meta: SessionMeta, update: SessionUpdate): SessionMeta | undefined {
  switch (update.sessionUpdate) {
    case 'plan':
      return { ...meta, plan: update.entries };
    case 'available_commands_update':
      return { ...meta, commands: update.availableCommands };
    case 'current_mode_update':
      return meta.modes ? { ...meta, modes: { ...meta.modes, currentModeId: update.currentModeId } } : meta;
    case 'config_option_update':
      return { ...meta, configOptions: update.configOptions };
    case 'session_info_update': {
      if (update.title === undefined) return undefined;
      return { ...meta, title: update.title ?? undefined };
    }
    case 'usage_update':
      return { ...meta, usage: { used: update.used, size: update.size, cost: update.cost ?? undefined } };
    default:
      return undefined;
  }
}

/** Slash-command completions for what the user has typed so far ("/" then a name prefix). */
export function matchCommands(commands: readonly AvailableCommand[], input: string): AvailableCommand[] {
  const m = /^\/(\S*)$/.exec(input);
  if (!m) return [];
  const prefix = m[1].toLowerCase();
  return commands.filter(c => c.name.toLowerCase().startsWith(prefix));
}
