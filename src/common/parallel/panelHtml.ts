// The side-by-side view of a set of parallel runs, as HTML (host-rendered; every text from an agent
// or the user is escaped). The panel's script only swaps it in and sends the button clicks back
// (views/parallelPanel.ts), so what the user sees is decided here and unit-tested.
import * as l10n from '@vscode/l10n';
import { isAllow, isPrimaryOption, isReject, kindLabel, optionLabel, orderOptions } from '../permissionOptions';
import type { PermissionOptionView } from '../transcript';
import { totals } from './diffStats';
import { canApply, isOpen, runEnded, RunSetState, RunState } from './runSet';

export interface RunQuestionView {
  readonly itemId: string;
  readonly title: string;
  readonly options: readonly PermissionOptionView[];
  /** The kind of the tool call asked about (execute, edit…) and its input (the command), as the agent sent them. */
  readonly toolKind?: string;
  readonly input?: string;
}

export interface RunSetView {
  readonly state: RunSetState;
  /** ms now (elapsed times of runs still working). */
  readonly now: number;
  readonly questions: Readonly<Record<string, RunQuestionView | undefined>>;
  /** Each run's last answer (its end is shown). */
  readonly answers: Readonly<Record<string, string>>;
}

const ANSWER_TAIL = 800;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** 65 s → "1m 05s". */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

function statusText(run: RunState): string {
  switch (run.status) {
    case 'preparing': return l10n.t('Preparing its worktree…');
    case 'starting': return l10n.t('Starting…');
    case 'working': return l10n.t('Working…');
    case 'waiting': return l10n.t('Waiting for you');
    case 'done': return l10n.t('Done');
    case 'failed': return l10n.t('Failed');
    case 'stopped': return l10n.t('Stopped');
  }
}

function phaseText(state: RunSetState): string {
  switch (state.phase) {
    case 'preparing': return l10n.t('Creating a git worktree for each run…');
    case 'running': return l10n.t('The agents are working, each in its own worktree.');
    case 'finished': return l10n.t('All runs ended. Apply the result you prefer, or discard them all.');
    case 'applying': return l10n.t('Applying…');
    case 'applied': return l10n.t('Applied. The worktrees were removed.');
    case 'discarded': return l10n.t('Discarded. The worktrees were removed.');
    case 'failed': return l10n.t('Could not start.');
  }
}

function button(action: string, label: string, data: Record<string, string>, primary = false): string {
  const attrs = Object.entries(data).map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`).join('');
  return `<button class="${primary ? 'primary' : 'secondary'}" data-action="${action}"${attrs}>${escapeHtml(label)}</button>`;
}

const INPUT_SHOWN = 1000;

/** As in the chat: the options ordered and labelled by what they do, a contradicting name flagged; the tool call's kind and input. */
function renderQuestion(runId: string, q: RunQuestionView): string {
  const options = orderOptions(q.options);
  const buttons = options.map(o => {
    const label = optionLabel(o);
    const style = isPrimaryOption(o.kind) ? 'primary' : isReject(o.kind) ? 'secondary reject' : isAllow(o.kind) ? 'secondary allow-always' : 'secondary';
    return `<button class="${style}${o.misleading ? ' misleading' : ''}" data-action="answer" data-run="${escapeHtml(runId)}" data-item="${escapeHtml(q.itemId)}" data-option="${escapeHtml(o.optionId)}" aria-label="${escapeHtml(`${label}: ${kindLabel(o.kind)}`)}">${escapeHtml(label)}</button>`;
  }).join(' ');
  const input = q.input && q.input.length > INPUT_SHOWN ? `${q.input.slice(0, INPUT_SHOWN)}…` : q.input;
  const tool = q.toolKind || input
    ? `<p class="tool-kind">${escapeHtml(l10n.t('Tool: {0}', q.toolKind || l10n.t('unknown')))}</p>${input ? `<pre class="tool-input">${escapeHtml(input)}</pre>` : ''}`
    : '';
  const warning = options.some(o => o.misleading)
    ? `<p class="permission-warning" role="note">${escapeHtml(l10n.t("Careful: an option's name says the opposite of what it does. Each button shows what it does."))}</p>`
    : '';
  return `<div class="question" role="group" aria-label="${escapeHtml(q.title)}"><p>${escapeHtml(q.title)}</p>${tool}<div class="actions">${buttons}</div>${warning}</div>`;
}

function renderRun(view: RunSetView, run: RunState): string {
  const { state } = view;
  const time = run.startedAt !== undefined ? elapsed((run.endedAt ?? view.now) - run.startedAt) : '';
  const meta = [time && l10n.t('Time: {0}', time), run.tokens !== undefined && l10n.t('Tokens: {0}', run.tokens)].filter(Boolean).join(' · ');
  const q = view.questions[run.id];
  const question = q && isOpen(state) && !runEnded(run) ? renderQuestion(run.id, q) : '';
  const t = totals(run.files);
  const files = run.files.length
    ? `<p class="totals">${escapeHtml(l10n.t('{0} file(s) changed', t.files))} <span class="add">+${t.added}</span> <span class="del">−${t.removed}</span></p><ul class="files">${run.files.map(f => {
      const counts = f.added === undefined ? `<span class="bin">${escapeHtml(l10n.t('binary'))}</span>` : `<span class="add">+${f.added}</span> <span class="del">−${f.removed}</span>`;
      const link = isOpen(state) ? `<a href="#" data-action="diff" data-run="${escapeHtml(run.id)}" data-path="${escapeHtml(f.path)}">${escapeHtml(f.path)}</a>` : escapeHtml(f.path);
      return `<li class="${f.change}">${link} ${counts}</li>`;
    }).join('')}</ul>`
    : runEnded(run) ? `<p class="totals">${escapeHtml(l10n.t('No files changed'))}</p>` : '';
  const answer = view.answers[run.id] ?? '';
  const shown = answer.length > ANSWER_TAIL ? `…${answer.slice(-ANSWER_TAIL)}` : answer;
  const actions = [
    canApply(state, run.id) && button('apply', l10n.t('Apply this result'), { run: run.id }, true),
    isOpen(state) && !runEnded(run) && button('stop', l10n.t('Stop'), { run: run.id }),
  ].filter(Boolean).join(' ');
  const applied = state.applied === run.id ? ` <span class="badge">${escapeHtml(state.phase === 'applied' ? l10n.t('Applied') : l10n.t('Applying…'))}</span>` : '';
  return `<section class="run ${run.status}" data-run="${escapeHtml(run.id)}" aria-label="${escapeHtml(run.label)}">
<h2>${escapeHtml(run.label)}${applied}</h2>
<p class="status" role="status">${escapeHtml(statusText(run))}${run.detail ? `: ${escapeHtml(run.detail)}` : ''}</p>
${meta ? `<p class="meta">${escapeHtml(meta)}</p>` : ''}${question}${files}
${shown ? `<pre class="answer">${escapeHtml(shown)}</pre>` : ''}
${actions ? `<div class="actions">${actions}</div>` : ''}
</section>`;
}

export function renderRunSet(view: RunSetView): string {
  const { state } = view;
  const discard = isOpen(state) && state.phase !== 'applying' ? button('discard', l10n.t('Discard all'), {}) : '';
  return `<header>
<p class="prompt"><strong>${escapeHtml(l10n.t('Prompt'))}:</strong> ${escapeHtml(state.prompt)}</p>
<p class="phase" role="status">${escapeHtml(phaseText(state))}</p>
${state.message ? `<p class="message">${escapeHtml(state.message)}</p>` : ''}
${discard ? `<div class="actions">${discard}</div>` : ''}
</header>
${state.phase === 'failed' ? '' : `<div class="runs">${state.runs.map(r => renderRun(view, r)).join('\n')}</div>`}`;
}
