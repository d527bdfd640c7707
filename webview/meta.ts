// The conversation's session state around the prompt box: its plans (webview/plans.ts), the mode
// picker and, in a mode that writes without asking, the note above the prompt box; the agent's
// config options; the context meter. The host sends the meta whole (`session/meta`).
import * as l10n from '@vscode/l10n';
import type { SessionConfigOption } from '@agentclientprotocol/sdk/unstable';
import type { ViewMessage } from '../src/common/protocol';
import type { SessionMeta } from '../src/common/sessionMeta';
import { currentMode, modeBehaviour, modeControl, type ModeControl, writesWithoutAsking } from '../src/common/agentModes';
import { uiLanguage } from './l10n';
import { button, h } from './dom';
import { handlePlanLinks, renderPlans } from './plans';
import { toolStatusText } from './labels';
import { usageMeter } from './usageMeter';

let send: (m: ViewMessage) => void = () => {};
let planEl: HTMLElement;
let modeEl: HTMLSelectElement;
let configEl: HTMLElement;
let modeNoteEl: HTMLElement;
let usageEl: HTMLElement;
let meta: SessionMeta | undefined;

export function initMeta(post: (m: ViewMessage) => void, els: { plan: HTMLElement; mode: HTMLSelectElement; config: HTMLElement; modeNote: HTMLElement; usage: HTMLElement }): void {
  send = post;
  ({ plan: planEl, mode: modeEl, config: configEl, modeNote: modeNoteEl, usage: usageEl } = els);
  handlePlanLinks(planEl, href => send({ type: 'link/open', href }));
  modeEl.addEventListener('change', () => {
    const control = meta ? modeControl(meta) : undefined;
    if (control) setModeTo(control, modeEl.value);
  });
}

/** The shown conversation's meta (its slash commands, its plans). */
export function currentMeta(): SessionMeta | undefined {
  return meta;
}

/** A `session/meta` update; `samePlans`: its plans did not change and were left out, so the shown ones stay. */
export function updateMeta(m: SessionMeta, samePlans: boolean | undefined): void {
  setMeta(samePlans && meta?.plans ? { ...m, plans: meta.plans } : m);
}

const PRIORITY_LABELS: Record<string, string> = {
  high: l10n.t({ message: 'high', comment: ['A plan entry\'s priority'] }), medium: l10n.t({ message: 'medium', comment: ['A plan entry\'s priority'] }),
  low: l10n.t({ message: 'low', comment: ['A plan entry\'s priority'] }),
};

export function setMeta(m: SessionMeta | undefined): void {
  meta = m;
  // Plans: replaced whole on every update (webview/plans.ts).
  renderPlans(planEl, m, { priority: PRIORITY_LABELS, status: toolStatusText });
  // Modes: one picker (a `mode` config option supersedes the legacy modes), and what holds in this mode.
  const control = m ? modeControl(m) : undefined;
  modeEl.hidden = !control;
  if (control) renderModes(control);
  renderModeNote(control);
  // Config options (the mode option is in the mode picker).
  configEl.replaceChildren(...(m?.configOptions ?? []).filter(o => !(control?.via === 'config' && o.id === control.configId)).map(buildConfigOption));
  // Context usage.
  const usage = m?.usage;
  const meter = usage && usageMeter(usage, uiLanguage);
  usageEl.hidden = !meter?.text;
  if (usage && meter) {
    usageEl.textContent = meter.text;
    usageEl.setAttribute('aria-valuenow', String(meter.percent));
    usageEl.title = meter.title;
    usageEl.className = meter.percent >= 90 ? 'high' : '';
  }
}

function renderModes(control: ModeControl): void {
  const modes = control.modes.some(x => x.id === control.current) ? control.modes : [...control.modes, currentMode(control)];
  modeEl.replaceChildren(...modes.map(mode => {
    const o = document.createElement('option');
    o.value = mode.id;
    // The modes that write without asking say so in the list itself.
    o.textContent = writesWithoutAsking(mode)
      ? l10n.t({ message: '{0} (writes without asking)', args: [mode.name], comment: ['A mode in the mode picker whose edits are written with no permission request; {0} is its name'] })
      : mode.name;
    o.title = mode.description ?? '';
    o.selected = mode.id === control.current;
    return o;
  }));
}

/** Above the prompt box while the conversation is in a mode that writes without asking: what holds, and the way back. */
function renderModeNote(control: ModeControl | undefined): void {
  const mode = control && currentMode(control);
  if (!control || !mode || !writesWithoutAsking(mode)) { modeNoteEl.hidden = true; modeNoteEl.replaceChildren(); return; }
  const asking = control.modes.find(x => modeBehaviour(x) === 'asks');
  modeNoteEl.replaceChildren(
    h('span', 'codicon codicon-warning', { 'aria-hidden': 'true' }),
    h('span', '', {}, l10n.t({ message: '{0} writes without asking. Edits are written first, then listed for Keep / Undo.', args: [mode.name], comment: ['Shown above the prompt box; {0} is the agent\'s current mode. Keep and Undo are the buttons of the changed-files list.'] })),
  );
  if (asking) modeNoteEl.append(button(l10n.t({ message: 'Ask first ({0})', args: [asking.name], comment: ['Switches the agent to its mode that asks before each edit; {0} is that mode\'s name'] }), 'secondary', () => setModeTo(control, asking.id)));
  modeNoteEl.hidden = false;
}

function setModeTo(control: ModeControl, modeId: string): void {
  if (control.via === 'config' && control.configId !== undefined) send({ type: 'config/set', configId: control.configId, value: modeId });
  else send({ type: 'mode/set', modeId });
}

function buildConfigOption(option: SessionConfigOption): HTMLElement {
  if (option.type === 'boolean') {
    const label = h('label', 'config-bool', { title: option.description ?? option.name });
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = option.currentValue;
    box.addEventListener('change', () => send({ type: 'config/set', configId: option.id, value: box.checked }));
    label.append(box, document.createTextNode(option.name));
    return label;
  }
  const select = document.createElement('select');
  select.setAttribute('aria-label', option.name);
  select.title = option.description ?? option.name;
  for (const entry of option.options) {
    if ('group' in entry) {
      const group = document.createElement('optgroup');
      group.label = entry.name;
      for (const o of entry.options) group.append(optionEl(o.value, o.name, option.currentValue));
      select.append(group);
    } else {
      select.append(optionEl(entry.value, entry.name, option.currentValue));
    }
  }
  select.addEventListener('change', () => send({ type: 'config/set', configId: option.id, value: select.value }));
  return select;
}

function optionEl(value: string, name: string, current: string): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value; o.textContent = name; o.selected = value === current;
  return o;
}
