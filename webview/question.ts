// The card of an elicitation: a form built from the agent's schema (see src/common/elicitation.ts),
// or a URL to open. The browser checks simple constraints at once (required, lengths, bounds); the
// host checks everything with ajv and sends back per-field messages. Nothing here evaluates code.
import type { FieldView, QuestionView, RawValue } from '../src/common/elicitation';
import type { Item } from '../src/common/transcript';
import type { ViewMessage } from '../src/common/protocol';
import * as l10n from '@vscode/l10n';
import { button, h } from './dom';

type Send = (m: ViewMessage) => void;

export function buildQuestion(item: Extract<Item, { kind: 'question' }>, tab: string | undefined, send: Send): HTMLElement {
  const q = item.question;
  const el = h('article', `question${q.outcome ? ' answered' : ''}${q.late ? ' late' : ''}`, { 'aria-label': l10n.t('Question from the agent: {0}', q.message), tabindex: '-1' });
  el.append(h('div', 'question-message', {}, q.message));
  const answer = (action: 'accept' | 'decline' | 'cancel', values?: Record<string, RawValue>) =>
    send({ type: 'question/answer', tab, itemId: item.id, action, ...(values ? { values } : {}) });
  if (q.url) {
    const where = h('div', 'question-url');
    // The host name is its own element: the sentence is translated whole and split where it goes.
    const [before, after = ''] = l10n.t({ message: 'Opens {0} in your browser', args: ['\u0001'], comment: ['{0} is a web site\'s host name'] }).split('\u0001');
    where.append(document.createTextNode(before), h('strong', 'question-host', {}, q.url.host), document.createTextNode(after));
    el.append(where, h('div', 'question-href', { title: q.url.href }, q.url.href));
    if (!q.url.secure) el.append(h('div', 'permission-warning', { role: 'note' }, l10n.t('Not encrypted (http): anyone on the network can read what you send there.')));
  }
  if (q.form) {
    if (q.form.title) el.append(h('div', 'question-title', {}, q.form.title));
    if (q.form.description) el.append(h('div', 'question-description', {}, q.form.description));
  }
  if (q.outcome) {
    el.append(h('div', 'permission-outcome', {}, outcomeText(q)));
    if (q.outcome === 'accepted' && q.form && q.values) {
      const list = h('dl', 'question-values');
      for (const f of q.form.fields) {
        const v = q.values[f.name];
        if (v === undefined || v === '' || (Array.isArray(v) && !v.length)) continue;
        list.append(h('dt', '', {}, f.title), h('dd', '', {}, Array.isArray(v) ? v.map(x => labelOf(f, x)).join(', ') : typeof v === 'boolean' ? (v ? l10n.t('Yes') : l10n.t('No')) : labelOf(f, String(v))));
      }
      el.append(list);
    }
    return el;
  }
  el.tabIndex = 0;
  const form = h('form', 'question-form', { novalidate: '' }) as HTMLFormElement;
  const readers: Array<() => [string, RawValue]> = [];
  const checks: Array<() => boolean> = [];
  q.form?.fields.forEach((f, i) => {
    const { box, read, check } = buildField(f, `${item.id}-f${i}`, q.values?.[f.name], q.errors?.[f.name]);
    form.append(box);
    readers.push(read);
    checks.push(check);
  });
  if (q.errors?.['']) form.append(h('div', 'field-error', { role: 'alert' }, q.errors['']));
  const row = h('div', 'actions', { role: 'group', 'aria-label': l10n.t('Answer') });
  const primary = q.url ? l10n.t('Open {0}', q.url.host) : l10n.t('Submit');
  row.append(button(primary, 'allow', () => {
    if (q.url) return answer('accept');
    // Every field shows its message; the first wrong one gets the focus. Nothing is sent.
    const ok = checks.map(c => c()).every(Boolean);
    if (!ok) { (form.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus(); return; }
    answer('accept', Object.fromEntries(readers.map(r => r())));
  }), button(l10n.t('Decline'), 'secondary reject', () => answer('decline')), button(l10n.t('Cancel'), 'secondary', () => answer('cancel')));
  form.append(row);
  form.addEventListener('submit', e => e.preventDefault());
  el.append(form);
  return el;
}

function buildField(f: FieldView, id: string, value: RawValue | undefined, error: string | undefined): { box: HTMLElement; read: () => [string, RawValue]; check: () => boolean } {
  const box = h('div', `field field-${f.kind}`);
  const errEl = h('div', 'field-error', { id: `${id}-err`, role: 'alert' }, error ?? '');
  const label = h('label', 'field-label', { for: id }, f.title);
  if (f.required) label.append(h('span', 'field-required', { 'aria-hidden': 'true' }, ' *'));
  const desc = f.description ? h('div', 'field-description', { id: `${id}-desc` }, f.description) : undefined;
  const described = [desc ? `${id}-desc` : '', `${id}-err`].filter(Boolean).join(' ');
  const invalid = (input: HTMLElement, message: string) => {
    errEl.textContent = message;
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    return !message;
  };
  let read: () => RawValue;
  let check: () => boolean;
  if (f.kind === 'boolean') {
    const input = h('input', '', { type: 'checkbox', id, 'aria-describedby': described }) as HTMLInputElement;
    input.checked = typeof value === 'boolean' ? value : !!f.default;
    label.prepend(input);
    box.append(label);
    read = () => input.checked;
    check = () => invalid(input, '');
  } else if (f.kind === 'multiselect') {
    const set = h('fieldset', 'field-options', { 'aria-describedby': described });
    const legend = h('legend', 'field-label', {}, f.title);
    if (f.required) legend.append(h('span', 'field-required', { 'aria-hidden': 'true' }, ' *'));
    set.append(legend);
    const chosen = new Set(Array.isArray(value) ? value : f.default ?? []);
    const boxes = f.options.map((o, k) => {
      const input = h('input', '', { type: 'checkbox', id: `${id}-o${k}`, value: o.value }) as HTMLInputElement;
      input.checked = chosen.has(o.value);
      const l = h('label', 'field-option', { for: input.id });
      l.append(input, document.createTextNode(` ${o.label}`));
      set.append(l);
      return input;
    });
    box.append(set);
    read = () => boxes.filter(b => b.checked).map(b => b.value);
    set.addEventListener('change', () => { if (errEl.textContent) check(); });
    check = () => {
      const n = boxes.filter(b => b.checked).length;
      return invalid(set, f.required && n === 0 ? l10n.t('Choose at least one.') : f.minItems !== undefined && n < f.minItems ? l10n.t('Choose at least {0}.', f.minItems)
        : f.maxItems !== undefined && n > f.maxItems ? l10n.t('Choose at most {0}.', f.maxItems) : '');
    };
  } else if (f.kind === 'select') {
    const select = h('select', '', { id, 'aria-describedby': described }) as HTMLSelectElement;
    if (!f.required || f.default === undefined) select.append(option('', f.required ? l10n.t('Choose…') : l10n.t('(none)')));
    f.options.forEach(o => select.append(option(o.value, o.label)));
    select.value = typeof value === 'string' ? value : f.default ?? '';
    if (f.required) select.required = true;
    box.append(label, select);
    read = () => select.value;
    check = () => invalid(select, select.validity.valid ? '' : l10n.t('Required.'));
  } else {
    const input = h('input', '', { id, 'aria-describedby': described }) as HTMLInputElement;
    if (f.kind === 'number') {
      input.type = 'number';
      input.step = f.integer ? '1' : 'any';
      if (f.minimum !== undefined) input.min = String(f.minimum);
      if (f.maximum !== undefined) input.max = String(f.maximum);
    } else {
      input.type = f.format === 'email' ? 'email' : f.format === 'uri' ? 'url' : f.format === 'date' ? 'date' : 'text';
      if (f.format === 'date-time') input.placeholder = '2026-07-01T09:30:00Z';
      if (f.minLength !== undefined) input.minLength = f.minLength;
      if (f.maxLength !== undefined) input.maxLength = f.maxLength;
    }
    input.required = f.required;
    input.value = typeof value === 'string' ? value : '';
    box.append(label, input);
    read = () => input.value;
    // The browser's own messages (required, lengths, bounds, email/url shape); the host checks the rest.
    check = () => invalid(input, input.validity.valid ? '' : input.validationMessage || l10n.t('Invalid value.'));
    // A message goes as soon as the value is fixed (on input, not on blur: a message vanishing on
    // blur would move the control the user is clicking).
    input.addEventListener('input', () => { if (errEl.textContent) check(); });
  }
  if (desc) box.append(desc);
  box.append(errEl);
  if (error) box.querySelector('input, select, fieldset')?.setAttribute('aria-invalid', 'true');
  return { box, read: () => [f.name, read()], check };
}

function outcomeText(q: QuestionView): string {
  switch (q.outcome) {
    case 'accepted': return l10n.t('You submitted:');
    case 'declined': return l10n.t('You declined.');
    case 'opened': return l10n.t('Opened {0}. Waiting for the agent…', q.url?.host ?? '');
    case 'completed': return l10n.t('Completed.');
    default: return l10n.t('Not answered (cancelled)');
  }
}

function labelOf(f: FieldView, v: string): string {
  return 'options' in f ? f.options.find(o => o.value === v)?.label ?? v : v;
}

function option(value: string, label: string): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  return o;
}

