// The chat view in the browser: acquires the VS Code API, hands each surface its elements, routes
// the host's messages to the surfaces and starts. Each surface is a module owning its state: the
// transcript (transcriptView.ts, its cards in items.ts, toolCard.ts and permission.ts, what is
// read out in itemAnnouncer.ts), the tab strip (tabs.ts), the status line and the composer's buttons
// (status.ts), the session's plans, modes, options and usage (meta.ts), the review lists
// (review.ts), the prompt box (composer.ts), the queue, search and welcome.
import './iconFont';
import './l10n';
import type { HostMessage } from '../src/common/protocol';
import { onMarkdownLoaded } from './lazyMarkdown';
import { withChildAgents } from './childAgents';
import { TranscriptView } from './transcriptView';
import { initQueue, renderQueue } from './queue';
import { Welcome } from './welcome';
import { ConversationSearch } from './search';
import { stopText } from './labels';
import { setRoots } from './titles';
import { buildItem, initItems } from './items';
import { terminalTail } from './toolCard';
import { ItemAnnouncer } from './itemAnnouncer';
import { renderChanges, renderWrites, initReview } from './review';
import { initTabs, redrawTabs, setTabs, setShownTab, shownTab } from './tabs';
import { initStatus, renderStatus, setStatus } from './status';
import { currentMeta, initMeta, setMeta, updateMeta } from './meta';
import { Surface, type VsCodeApi } from './surface';
import { readFirstState } from './firstState';
import { afterLoad } from './firstLayout';
import { fillPrompt, initComposer, insertIntoPrompt, mentionResults, pickerOpen, promptBox, restorePrompt, setAbilities, showDraftOf } from './composer';
import './chat.css';

declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const decoder = new TextDecoder();
const childTab = document.body.classList.contains('child-tab');
// A helper's tab keeps which conversation and helper it shows: VS Code restores it after a reload.
if (childTab) vscode.setState({ tab: document.body.dataset.tab, childId: document.body.dataset.child });
// The state the host wrote into the page, shown below once the page is built (firstState.ts).
const first = childTab ? undefined : readFirstState(vscode.getState());
// This page's own conversation: named in what it sends, kept for a reload (surface.ts).
const surface = new Surface(vscode, shownTab, childTab, first);
const send = surface.send;
// Asked first: the host's answer (the page's state) is on its way while the page builds itself
// below, and is only read once this script has run (the listener is added further down).
send(surface.ready());

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const transcriptEl = $<HTMLElement>('transcript');
initMeta(send, { plan: $('plan'), mode: $('mode'), config: $('config'), modeNote: $('mode-note'), usage: $('usage') });
initComposer(send, { form: $('composer'), prompt: $('prompt'), completions: $('completions'), attachments: $('attachments') }, currentMeta);
initReview(send, $('writes'), $('changes'), promptBox);
const welcome = new Welcome($<HTMLElement>('welcome'), { send, fillPrompt });
/** An empty conversation shows the welcome, and its empty transcript is no Tab stop. */
function showWelcome(empty: boolean): void {
  welcome.setEmpty(empty);
  transcriptEl.tabIndex = empty ? -1 : 0;
}

initItems({ send, tab: shownTab });
const announcer = new ItemAnnouncer(itemId => transcript.textOf(itemId));
const transcript = new TranscriptView(transcriptEl, {
  build: withChildAgents(buildItem, m => send(m), shownTab), added: item => announcer.added(item), stopText,
  loadTurn: turnId => send({ type: 'turn/load', tab: shownTab(), turnId }),
});
const search = new ConversationSearch({
  query: query => send({ type: 'search/query', tab: shownTab(), query }),
  open: itemId => send({ type: 'item/openText', tab: shownTab(), itemId }),
});
$<HTMLElement>('welcome').before(search.el);
document.addEventListener('keydown', e => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') { e.preventDefault(); search.show(); }
});
initTabs(send, $('tabs'), $('tab-actions'), renderStatus);
initStatus(send, { status: $('status'), send: $('send'), stop: $('stop'), agent: $('agent') }, pickerOpen);

function onHostMessage(msg: HostMessage): void {
  switch (msg.type) {
    case 'state/reset':
      setRoots(msg.roots ?? []);
      setShownTab(msg.activeTab);
      showDraftOf(msg.activeTab);
      transcript.reset(msg.archived ?? [], msg.items);
      showWelcome(!msg.items.length && !msg.archived?.length);
      // Shown mid-answer (another tab was selected): the answer is still announced when it is complete.
      announcer.reset(msg.items.at(-1)?.kind === 'agent' && msg.tabs.find(t => t.id === msg.activeTab)?.state === 'busy' ? msg.items.at(-1)!.id : undefined);
      setTabs(msg.tabs, msg.activeTab);
      setMeta(msg.meta);
      setAbilities(msg.abilities);
      setStatus(msg.status);
      redrawTabs();
      surface.remember();
      transcript.toEnd();
      // The view is live (listeners attached, state received): UI tests wait for this.
      document.body.dataset.ready = 'true';
      // When, by this page's clock (bench/activation reads it: no polling delay in the figure).
      if (!performance.getEntriesByName('view-ready').length) performance.mark('view-ready', { detail: Date.now() });
      break;
    case 'packed':
      onHostMessage(JSON.parse(decoder.decode(msg.json)) as HostMessage);
      break;
    case 'transcript/ops':
      if (msg.tab === shownTab()) {
        transcript.push(msg.ops);
        if (msg.ops.some(o => o.op === 'add')) showWelcome(false);
      }
      break;
    case 'welcome':
      welcome.set(msg.welcome);
      break;
    case 'turn/items':
      if (msg.tab === shownTab()) transcript.loaded(msg.turnId, msg.items);
      break;
    case 'session/meta':
      if (msg.tab === shownTab()) updateMeta(msg.meta, msg.samePlans);
      break;
    case 'tabs':
      setTabs(msg.tabs, msg.activeTab);
      surface.remember();
      break;
    case 'status':
      setAbilities(msg.abilities);
      setStatus(msg.status);
      // The tab strip is drawn again, and the status line with it.
      redrawTabs();
      break;
    case 'search/results':
      if (msg.tab === shownTab()) search.results(msg.query, msg.hits);
      break;
    case 'mention/results':
      mentionResults(msg.query, msg.results);
      break;
    case 'composer/restore':
      restorePrompt(msg.text, msg.mentions, msg.images, msg.tab, msg.over);
      break;
    case 'composer/insert':
      insertIntoPrompt(msg.mentions, msg.text);
      break;
    case 'changes':
      renderChanges(msg.turns);
      break;
    case 'writes':
      renderWrites(msg.writes);
      break;
    case 'queue':
      if (msg.tab === shownTab()) renderQueue(msg.tab, msg.queue);
      break;
    case 'terminal/tail':
      terminalTail(msg.terminalId, msg.text, msg.exited);
      break;
  }
}
window.addEventListener('message', (event: MessageEvent<HostMessage>) => onHostMessage(event.data));

// Text shown plain while the markdown renderer loaded is rendered when it arrives; the transcript
// keeps to its end if it was there.
onMarkdownLoaded(apply => {
  const stick = transcript.isAtEnd();
  apply();
  if (stick) transcriptEl.scrollTop = transcriptEl.scrollHeight;
});

// Links and copy buttons inside rendered markdown.
transcriptEl.addEventListener('click', e => {
  const target = e.target as HTMLElement;
  const copy = target.closest('button.copy');
  if (copy) {
    const code = copy.parentElement?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(() => { copy.classList.replace('codicon-copy', 'codicon-check'); });
    return;
  }
  const a = target.closest('.markdown a') as HTMLAnchorElement | null;
  if (a) {
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href) send({ type: 'link/open', href });
  }
});

// The transcript keeps to its end when it gets shorter because something appeared below it (the
// changed-files list, a review card, the plan, a taller prompt box), if it was at its end before.
// "At its end" is judged with the height the user last saw (as of the last layout), so a list that
// appeared below since then does not count as the user having scrolled up.
new ResizeObserver(() => {
  const wasAtEnd = transcript.shownHeight === 0 || transcript.isAtEnd();
  transcript.shownHeight = transcriptEl.clientHeight;
  if (wasAtEnd) transcriptEl.scrollTop = transcriptEl.scrollHeight;
}).observe(transcriptEl);

initQueue(send);
surface.onUse(() => send({ type: 'view/focus' }));
// Focusing lays the page out: after its load event (firstLayout.ts).
afterLoad(() => promptBox().focus());
// The state the host wrote into the page, shown now: the first paint waits for no answer.
for (const message of first?.messages ?? []) onHostMessage(message);
