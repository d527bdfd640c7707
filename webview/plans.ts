// The plan panel above the prompt: the legacy checklist (`plan`) as before, then each plan the agent
// keeps by id (`plan_update`, common/plans.ts): a checklist, a Markdown document (rendered by the
// lazy renderer: markdown-it without HTML, DOMPurify; live, re-rendered on each update) or a link to
// the plan's file. A plan is state, not history: the panel shows the current plans, always in view.
import * as l10n from '@vscode/l10n';
import type { PlanEntry } from '@agentclientprotocol/sdk/unstable';
import type { PlanView } from '../src/common/plans';
import { planFileLabel } from '../src/common/plans';
import type { SessionMeta } from '../src/common/sessionMeta';
import { h } from './dom';
import { setMarkdown } from './lazyMarkdown';

export interface PlanLabels {
  readonly priority: Record<string, string>;
  status(status: string): string;
}

/** Links in the panel (a Markdown plan's, a file plan's) open through the host, like links in the chat. */
export function handlePlanLinks(panel: HTMLElement, open: (href: string) => void): void {
  panel.addEventListener('click', e => {
    const a = (e.target as HTMLElement).closest('a') as HTMLAnchorElement | null;
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href) open(href);
  });
}

/** Renders every plan of `meta` into `panel` (hidden when there is none); open/closed state survives updates. */
export function renderPlans(panel: HTMLElement, meta: SessionMeta | undefined, labels: PlanLabels): void {
  const legacy = meta?.plan ?? [];
  const plans = meta?.plans ?? [];
  panel.hidden = legacy.length === 0 && plans.length === 0;
  const closed = new Set([...panel.querySelectorAll<HTMLDetailsElement>('details[data-plan]')].filter(d => !d.open).map(d => d.dataset.plan!));
  const parts: HTMLElement[] = [];
  if (legacy.length) parts.push(checklist('', legacy, labels));
  for (const p of plans) parts.push(p.type === 'items' ? checklist(p.planId, p.entries, labels) : p.type === 'markdown' ? markdownPlan(p) : filePlan(p));
  for (const d of parts) if (closed.has(d.dataset.plan!)) (d as HTMLDetailsElement).open = false;
  panel.replaceChildren(...parts);
}

function details(planId: string, kind: PlanView['type'] | 'legacy'): HTMLDetailsElement {
  return h('details', `plan plan-${kind}`, { open: '', 'data-plan': planId }) as HTMLDetailsElement;
}

function checklist(planId: string, entries: readonly PlanEntry[], labels: PlanLabels): HTMLElement {
  const d = details(planId, planId ? 'items' : 'legacy');
  const done = entries.filter(e => e.status === 'completed').length;
  d.append(h('summary', '', {}, l10n.t('Plan · {0}/{1} done', done, entries.length)));
  const list = h('ol', 'plan-entries');
  for (const e of entries) {
    const li = h('li', `plan-entry ${e.status} priority-${e.priority}`, { title: l10n.t({ message: '{0}, {1} priority', args: [labels.status(e.status), labels.priority[e.priority] ?? e.priority], comment: ['A plan entry\'s tooltip: {0} is its status, {1} its priority (high, medium, low)'] }) });
    li.append(h('span', `codicon codicon-${e.status === 'completed' ? 'pass-filled' : e.status === 'in_progress' ? 'circle-large-filled' : 'circle-large-outline'}`, { role: 'img', 'aria-label': labels.status(e.status) }),
      h('span', '', {}, e.content), h('span', 'priority', {}, labels.priority[e.priority] ?? e.priority));
    list.append(li);
  }
  d.append(list);
  return d;
}

function markdownPlan(p: Extract<PlanView, { type: 'markdown' }>): HTMLElement {
  const d = details(p.planId, 'markdown');
  d.append(h('summary', '', {}, l10n.t({ message: 'Plan · document', comment: ['The title of a plan the agent keeps as a Markdown document'] })));
  const body = h('div', 'markdown plan-document');
  setMarkdown(body, p.content);
  d.append(body);
  return d;
}

function filePlan(p: Extract<PlanView, { type: 'file' }>): HTMLElement {
  const d = details(p.planId, 'file');
  const label = planFileLabel(p.uri);
  d.append(h('summary', '', {}, l10n.t({ message: 'Plan · file', comment: ['The title of a plan the agent keeps in a file'] })));
  const a = h('a', 'plan-file', { href: p.uri, title: l10n.t('Open the plan {0}', label) }, label);
  const row = h('div', 'plan-file-row');
  row.append(a);
  d.append(row);
  return d;
}
