// An agent's modes as the user chooses among them: one picker (a `mode` config option supersedes
// the legacy `modes`, as ACP says), and for each mode whether it asks before editing or writes
// without asking. Today's Claude and Codex adapters start in a mode that edits in their own process
// with no permission request; Switchboard starts a new conversation in the agent's asking mode
// instead, unless the user chose otherwise. Pure: used by the host and the webview.
import type { SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk/unstable';

/** `asks`: every edit is asked before it is written; `plans`: asks too, but only plans (never a start mode); `writes`: edits without asking. */
export type ModeBehaviour = 'asks' | 'plans' | 'writes' | 'unknown';

export interface ModeEntry { readonly id: string; readonly name: string; readonly description?: string | null }

/** The one mode picker of a session: the `mode` config option when there is one, else the legacy modes. */
export interface ModeControl {
  /** `config`: set with session/set_config_option (`configId`); `modes`: with session/set_mode. */
  readonly via: 'config' | 'modes';
  readonly configId?: string;
  readonly current: string;
  readonly modes: readonly ModeEntry[];
}

/** Mode ids of today's adapters (Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI…) and what they do. */
export const KNOWN_MODES: Readonly<Record<string, ModeBehaviour>> = {
  // Claude Code (claude-agent-acp)
  default: 'asks', plan: 'plans', acceptEdits: 'writes', auto: 'writes', bypassPermissions: 'writes', dontAsk: 'writes',
  // Codex (codex-acp)
  'read-only': 'asks', 'workspace-write': 'writes', agent: 'writes', 'agent-full-access': 'writes', 'full-access': 'writes',
  // Gemini CLI, Qwen Code, others
  ask: 'asks', manual: 'asks', autoEdit: 'writes', 'auto-edit': 'writes', auto_edit: 'writes', yolo: 'writes',
  architect: 'plans',
};

const SAYS_WRITES = /\b(automatically (accept|approve|apply)|accepts? all|without (asking|approval|confirmation)|bypass|full access|unrestricted|handles permission|(edits?|writes?) (workspace )?files (directly|freely|without)|only ask for actions detected|auto[- ]?(accept|approve|edit))/i;
const SAYS_ASKS = /\b(always ask|asks? (before|for approval|for permission)|requires? (approval|permission|confirmation)|approval to edit|read[- ]only)/i;
const SAYS_PLANS = /\b(plan (before|first|only)|create a plan|planning|no edits)\b/i;

/** What a mode does, from its id (known adapters) and its description (any agent); a description that says it writes wins. */
export function modeBehaviour(mode: ModeEntry): ModeBehaviour {
  const text = `${mode.name} ${mode.description ?? ''}`;
  const known = Object.prototype.hasOwnProperty.call(KNOWN_MODES, mode.id) ? KNOWN_MODES[mode.id] : 'unknown';
  if (SAYS_WRITES.test(text) || known === 'writes') return 'writes';
  if (known !== 'unknown') return known;
  if (SAYS_PLANS.test(text)) return 'plans';
  if (SAYS_ASKS.test(text)) return 'asks';
  return 'unknown';
}

export function writesWithoutAsking(mode: ModeEntry): boolean {
  return modeBehaviour(mode) === 'writes';
}

/** The config option that is the session's mode (category `mode`, else id `mode`), if it is a select. */
export function modeConfigOption(options: readonly SessionConfigOption[]): Extract<SessionConfigOption, { type: 'select' }> | undefined {
  const found = options.find(o => o.category === 'mode' && o.type === 'select') ?? options.find(o => o.id === 'mode' && o.type === 'select');
  return found?.type === 'select' ? found : undefined;
}

/** The session's one mode picker, or undefined when the agent offers no modes. */
export function modeControl(meta: {
  readonly modes?: { readonly currentModeId: string; readonly availableModes: readonly SessionMode[] };
  readonly configOptions: readonly SessionConfigOption[];
}): ModeControl | undefined {
  const option = modeConfigOption(meta.configOptions);
  if (option) {
    const modes: ModeEntry[] = [];
    for (const entry of option.options) {
      const flat = 'group' in entry ? entry.options : [entry];
      for (const o of flat) modes.push({ id: o.value, name: o.name, description: o.description ?? undefined });
    }
    return { via: 'config', configId: option.id, current: option.currentValue, modes };
  }
  if (meta.modes && meta.modes.availableModes.length) {
    return {
      via: 'modes', current: meta.modes.currentModeId,
      modes: meta.modes.availableModes.map(m => ({ id: m.id, name: m.name, description: m.description ?? undefined })),
    };
  }
  return undefined;
}

/** The current mode's entry (it may be missing from the list the agent sent). */
export function currentMode(control: ModeControl): ModeEntry {
  return control.modes.find(m => m.id === control.current) ?? { id: control.current, name: control.current };
}

/**
 * The mode a new conversation should switch to, or undefined to stay: the user's remembered choice
 * for this agent when the agent still offers it; else, when `startAsking` and the current mode
 * writes without asking, the agent's asking mode (a known asking id first, never a planning mode).
 */
export function startMode(control: ModeControl, remembered: string | undefined, startAsking: boolean): string | undefined {
  if (remembered !== undefined && control.modes.some(m => m.id === remembered)) {
    return remembered === control.current ? undefined : remembered;
  }
  if (!startAsking || !writesWithoutAsking(currentMode(control))) return undefined;
  const asking = control.modes.filter(m => modeBehaviour(m) === 'asks');
  const preferred = asking.find(m => KNOWN_MODES[m.id] === 'asks') ?? asking[0];
  return preferred?.id;
}
