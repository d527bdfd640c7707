// Checks an elicitation answer against its form with ajv, in the extension host (ajv compiles
// validators with `new Function`, which the webview's CSP forbids). The JSON Schema is rebuilt from
// the parsed form, so only the keywords the form knows reach ajv. An agent's `pattern` runs under a
// time limit: a catastrophic regular expression cannot hang the extension host.
import * as vm from 'node:vm';
import type { default as AjvClass, ErrorObject } from 'ajv';
import * as l10n from '@vscode/l10n';
import { fieldError, type FieldView, type FormContent, type FormView } from './elicitation';

const PATTERN_MS = 50;
const patternTest = new vm.Script('pattern.test(value)');

/** Runs `re.test(s)` with a time limit; a test that takes too long counts as no match. */
function guardedTest(re: RegExp, s: string): boolean {
  try {
    return patternTest.runInNewContext({ pattern: re, value: s }, { timeout: PATTERN_MS }) === true;
  } catch {
    return false;
  }
}

const regExp = Object.assign((pattern: string, flags: string) => {
  const re = new RegExp(pattern, flags);
  // ajv keys its cache of patterns by toString().
  return { test: (s: string) => guardedTest(re, s), toString: () => re.toString() };
}, { code: 'guarded' });

const formats = {
  email: /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/,
  uri: (s: string) => { try { return /^[a-z][a-z0-9+.-]*:/i.test(s) && !!new URL(s); } catch { return false; } },
  date: (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && validDate(s),
  'date-time': (s: string) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && validDate(s.slice(0, 10)) && !Number.isNaN(Date.parse(s)),
};

function validDate(s: string): boolean {
  const [y, m, d] = s.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

let ajv: AjvClass | undefined;
/** ajv is loaded on the first answer, not when the extension activates. */
const loadAjv = (): typeof AjvClass => (require('ajv') as { default: typeof AjvClass }).default;

/** The JSON Schema of a form: what the answer's content must satisfy. */
export function contentSchema(form: FormView): object {
  const properties: Record<string, object> = {};
  for (const f of form.fields) properties[f.name] = fieldSchema(f);
  return { type: 'object', properties, required: form.fields.filter(f => f.required).map(f => f.name), additionalProperties: false };
}

function fieldSchema(f: FieldView): object {
  switch (f.kind) {
    case 'text': return strip({ type: 'string', format: f.format, minLength: f.minLength, maxLength: f.maxLength, pattern: f.pattern });
    case 'select': return { type: 'string', enum: f.options.map(o => o.value) };
    case 'multiselect': return strip({ type: 'array', items: { type: 'string', enum: f.options.map(o => o.value) }, uniqueItems: true, minItems: f.minItems, maxItems: f.maxItems });
    case 'number': return strip({ type: f.integer ? 'integer' : 'number', minimum: f.minimum, maximum: f.maximum });
    case 'boolean': return { type: 'boolean' };
  }
}

const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** Per field, what is wrong with the content (empty when it is valid). */
export function checkContent(form: FormView, content: FormContent): Record<string, string> {
  ajv ??= new (loadAjv())({ allErrors: true, strict: true, formats, code: { regExp } });
  const validate = ajv.compile(contentSchema(form));
  if (validate(content)) return {};
  const errors: Record<string, string> = {};
  for (const e of validate.errors ?? []) {
    const name = e.keyword === 'required' ? String(e.params.missingProperty) : e.instancePath.split('/')[1] ?? '';
    const field = form.fields.find(f => f.name === decodePointer(name));
    if (field && !errors[field.name]) errors[field.name] = message(e, field);
  }
  if (!Object.keys(errors).length) errors[''] = l10n.t('The answer does not match the form.');
  return errors;
}

const decodePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function message(e: ErrorObject, f: FieldView): string {
  const p = e.params as Record<string, unknown>;
  const limit = Number(p.limit);
  // Shown under a field of the agent's form, as a whole sentence.
  switch (e.keyword) {
    case 'required': return l10n.t('Required.');
    case 'minLength': return limit === 1 ? l10n.t('Enter at least 1 character.') : l10n.t('Enter at least {0} characters.', limit);
    case 'maxLength': return limit === 1 ? l10n.t('Enter at most 1 character.') : l10n.t('Enter at most {0} characters.', limit);
    case 'pattern': return l10n.t('Does not have the expected form.');
    case 'format': return formatError(String(p.format));
    case 'minimum': return l10n.t({ message: 'Must be at least {0}.', args: [limit], comment: ['{0} is the smallest number the field accepts.'] });
    case 'maximum': return l10n.t({ message: 'Must be at most {0}.', args: [limit], comment: ['{0} is the largest number the field accepts.'] });
    case 'type': return typeError(String(p.type));
    case 'enum': return l10n.t('Choose one of the options.');
    case 'minItems': return l10n.t({ message: 'Choose at least {0}.', args: [limit], comment: ['{0} is how many options of a multiple choice must be chosen at least.'] });
    case 'maxItems': return l10n.t({ message: 'Choose at most {0}.', args: [limit], comment: ['{0} is how many options of a multiple choice may be chosen at most.'] });
    case 'uniqueItems': return l10n.t('Choose each option once.');
    default: return l10n.t({ message: 'Invalid {0}.', args: [f.title], comment: ['{0} is the title of a form field, as the agent wrote it.'] });
  }
}

function formatError(format: string): string {
  switch (format) {
    case 'email': return l10n.t('Enter an email address.');
    case 'uri': return l10n.t('Enter a full address such as https://example.com.');
    case 'date': return l10n.t({ message: 'Enter a date (YYYY-MM-DD).', comment: ['YYYY-MM-DD is the format the field requires: keep it as it is.'] });
    case 'date-time': return l10n.t({ message: 'Enter a date and time such as 2026-07-01T09:30:00Z.', comment: ['The example is the format the field requires: keep it as it is.'] });
    default: return l10n.t('Has the wrong format.');
  }
}

/** The value has the wrong JSON type (the card sends the right one, so rarely seen). */
function typeError(type: string): string {
  switch (type) {
    case 'integer': return fieldError.integer();
    case 'number': return fieldError.number();
    case 'boolean': return fieldError.boolean();
    case 'array': return fieldError.list();
    case 'string': return fieldError.text();
    default: return l10n.t('Has the wrong type.');
  }
}
