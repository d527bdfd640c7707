// What the runner keeps when an e2e module fails, beside its screenshot: test-results/<name>-failure.txt
// with what each chat page showed at that moment (the transcript, the queue, the prompt box, where the
// focus was) and the extension's own log (its "Switchboard" output channel), so that a failure seen
// once in a loaded run can be told apart afterwards: a prompt the page never sent, one the host
// never showed, a turn still running.
import fs from 'node:fs';
import path from 'node:path';

/** Writes `<resultsDir>/<name>-failure.txt`; returns its path. */
export async function writeFailureReport({ page, tmp, name, resultsDir, agentLog }) {
  const parts = [];
  parts.push(`== focus in the workbench: ${await timed(page.evaluate(describeFocus)).catch(e => `(not readable: ${e.message})`)}`);
  for (const frame of page.frames()) {
    // The chat's pages: VS Code's webview frame hosts ours as its active frame.
    if (!(await timed(frame.$('#transcript')).catch(() => null))) continue;
    parts.push(`== chat page ${frame.url().split('?')[0]}`, await timed(frame.evaluate(chatState)).catch(e => `(not readable: ${e.message})`));
  }
  const log = tmp ? findFile(tmp, f => f === 'Switchboard.log') : undefined;
  parts.push(`== host log ${log ?? '(not found)'}`);
  if (log) parts.push(tail(fs.readFileSync(log, 'utf8'), 200_000));
  // The scripted agents' own events (SCRIPTED_AGENT_LOG): what they sent last, whether they ended the turn.
  if (agentLog && fs.existsSync(agentLog)) parts.push(`== scripted agents' events ${agentLog}`, tail(fs.readFileSync(agentLog, 'utf8'), 20_000));
  const file = path.join(resultsDir, `${name}-failure.txt`);
  fs.writeFileSync(file, parts.join('\n') + '\n');
  return file;
}

/** Runs in a chat page: what it shows, as text. */
function chatState() {
  const text = el => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const active = document.activeElement;
  const lines = [
    `ready: ${document.body.dataset.ready ?? 'no'}; page has the focus: ${document.hasFocus()}; focused: ${active ? `${active.tagName.toLowerCase()}#${active.id}` : 'none'}`,
    `status: ${text(document.getElementById('status'))}; send button: ${text(document.getElementById('send'))}`,
    `prompt box: ${JSON.stringify(document.getElementById('prompt')?.value ?? null)}`,
    `queue${document.getElementById('queue')?.hidden ? ' (hidden)' : ''}: ${text(document.getElementById('queue'))}`,
    'transcript:',
    // Each item drawn (a turn's items are in its window; a turn not drawn yet is one line).
    ...[...document.querySelectorAll('#transcript .turn')].flatMap(turn => {
      const items = turn.querySelectorAll(':scope > :not(.turn-items), :scope > .turn-items > .turn-items-window > *');
      return [`  [${turn.className}]`, ...[...items].map(el => `    [${el.className}] ${text(el).slice(0, 300)}`)];
    }),
  ];
  return lines.join('\n');
}

/** Runs in the workbench: the focused element, and its editor's or part's classes. */
function describeFocus() {
  const el = document.activeElement;
  if (!el) return 'none';
  const where = el.closest('.monaco-editor, .part, .webview');
  return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${where ? ` in ${where.tagName.toLowerCase()}.${[...where.classList].join('.')}` : ''}`;
}

function findFile(dir, match, depth = 0) {
  if (depth > 12) return undefined;
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return undefined; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isFile() && match(e.name)) return p;
    if (e.isDirectory() && e.name !== 'workspace' && e.name !== 'extensions' && e.name !== 'node_modules') {
      const found = findFile(p, match, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** A page that hangs (a script in a loop) answers nothing: give up on it after 5 s. */
function timed(promise) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('no answer in 5 s')), 5_000); })])
    .finally(() => clearTimeout(timer));
}

function tail(text, max) {
  return text.length > max ? `(… ${text.length - max} characters before)\n${text.slice(-max)}` : text;
}
