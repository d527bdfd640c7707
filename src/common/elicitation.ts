// Elicitation (`elicitation/create`, form mode): the agent's requested schema, untrusted, becomes a
// small form model the card renders, or a clear error for the agent. Only the flat schema ACP allows
// is accepted (string with format / length / pattern, single- and multi-select enums, number and
// integer with bounds, boolean), with bounded sizes. Pure: the webview imports it too. The errors
// for the agent stay English (JSON-RPC messages); the user's field errors are localized.
import * as l10n from '@vscode/l10n';
import { escapeBidi } from './bidi';

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

interface FieldBase {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
}

export type FieldView =
  | FieldBase & { readonly kind: 'text'; readonly format?: StringFormat; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly default?: string }
  | FieldBase & { readonly kind: 'select'; readonly options: readonly OptionView[]; readonly default?: string }
  | FieldBase & { readonly kind: 'multiselect'; readonly options: readonly OptionView[]; readonly minItems?: number; readonly maxItems?: number; readonly default?: readonly string[] }
  | FieldBase & { readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number; readonly default?: number }
  | FieldBase & { readonly kind: 'boolean'; readonly default?: boolean };

export interface OptionView { readonly value: string; readonly label: string }

export interface FormView {
  readonly title?: string;
  readonly description?: string;
  readonly fields: readonly FieldView[];
}

/** What the card sends back per field: text as typed (numbers too), a checkbox, the chosen options. */
export type RawValue = string | boolean | readonly string[];
export type FormContent = Record<string, string | number | boolean | string[]>;

export const LIMITS = { fields: 50, options: 100, text: 2000, name: 100, value: 10_000, pattern: 500 } as const;
const FORMATS: readonly string[] = ['email', 'uri', 'date', 'date-time'];

class SchemaError extends Error {}

/** The form for a requested schema, or why it cannot be shown (sent to the agent as -32602). */
export function formFromSchema(schema: unknown): { form: FormView } | { error: string } {
  try {
    return { form: parseSchema(schema) };
  } catch (err) {
    if (err instanceof SchemaError) return { error: `Unsupported elicitation schema: ${err.message}` };
    throw err;
  }
}

function parseSchema(schema: unknown): FormView {
  if (!isObject(schema)) throw new SchemaError('requestedSchema must be an object');
  if (schema.type !== undefined && schema.type !== null && schema.type !== 'object') throw new SchemaError(`type must be "object", not ${JSON.stringify(schema.type)}`);
  const props = schema.properties ?? {};
  if (!isObject(props)) throw new SchemaError('properties must be an object');
  const names = Object.keys(props);
  if (names.length > LIMITS.fields) throw new SchemaError(`at most ${LIMITS.fields} fields, got ${names.length}`);
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every(r => typeof r === 'string')) throw new SchemaError('required must be a list of property names');
  const unknown = required.filter(r => !Object.hasOwn(props, r));
  if (unknown.length) throw new SchemaError(`required names unknown properties: ${unknown.map(u => JSON.stringify(u)).join(', ')}`);
  return {
    title: optText(schema.title, 'title'),
    description: optText(schema.description, 'description'),
    fields: names.map(name => parseField(name, props[name], required.includes(name))),
  };
}

function parseField(name: string, p: unknown, required: boolean): FieldView {
  const where = `property ${JSON.stringify(name.slice(0, LIMITS.name))}`;
  if (name.length === 0 || name.length > LIMITS.name) throw new SchemaError(`${where}: a name must have 1 to ${LIMITS.name} characters`);
  if (!isObject(p)) throw new SchemaError(`${where} must be an object`);
  const fail = (why: string): never => { throw new SchemaError(`${where}: ${why}`); };
  const base: FieldBase = {
    name, required,
    title: optText(p.title, `${where} title`) ?? escapeBidi(name),
    description: optText(p.description, `${where} description`),
  };
  const dflt = p.default ?? undefined;
  switch (p.type) {
    case 'string': {
      const options = p.enum != null ? plainOptions(p.enum, fail) : p.oneOf != null ? titledOptions(p.oneOf, fail) : undefined;
      if (options) {
        if (dflt !== undefined && !options.some(o => o.value === dflt)) fail(`default ${JSON.stringify(dflt)} is not one of the options`);
        return { ...base, kind: 'select', options, ...(dflt !== undefined ? { default: dflt as string } : {}) };
      }
      const format = p.format ?? undefined;
      if (format !== undefined && !FORMATS.includes(format as string)) fail(`format ${JSON.stringify(format)} is not supported (email, uri, date or date-time)`);
      const minLength = optCount(p.minLength, 'minLength', fail);
      const maxLength = optCount(p.maxLength, 'maxLength', fail);
      if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) fail(`minLength ${minLength} is greater than maxLength ${maxLength}`);
      const pattern = p.pattern ?? undefined;
      if (pattern !== undefined) {
        if (typeof pattern !== 'string' || pattern.length > LIMITS.pattern) fail(`pattern must be a string of at most ${LIMITS.pattern} characters`);
        try { new RegExp(pattern as string, 'u'); } catch (e) { fail(`pattern is not a valid regular expression (${(e as Error).message})`); }
      }
      if (dflt !== undefined && (typeof dflt !== 'string' || dflt.length > LIMITS.value)) fail('default must be a string');
      return { ...base, kind: 'text', ...defined({ format: format as StringFormat | undefined, minLength, maxLength, pattern: pattern as string | undefined, default: dflt as string | undefined }) };
    }
    case 'number':
    case 'integer': {
      const integer = p.type === 'integer';
      const bound = (v: unknown, key: string) => {
        if (v === undefined || v === null) return undefined;
        if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) fail(`${key} must be ${integer ? 'an integer' : 'a number'}`);
        return v as number;
      };
      const minimum = bound(p.minimum, 'minimum');
      const maximum = bound(p.maximum, 'maximum');
      if (minimum !== undefined && maximum !== undefined && minimum > maximum) fail(`minimum ${minimum} is greater than maximum ${maximum}`);
      const d = bound(dflt, 'default');
      return { ...base, kind: 'number', integer, ...defined({ minimum, maximum, default: d }) };
    }
    case 'boolean':
      if (dflt !== undefined && typeof dflt !== 'boolean') fail('default must be true or false');
      return { ...base, kind: 'boolean', ...defined({ default: dflt as boolean | undefined }) };
    case 'array': {
      const items = p.items;
      if (!isObject(items)) fail('a multi-select needs items with enum or anyOf');
      const it = items as Record<string, unknown>;
      const options = it.anyOf != null ? titledOptions(it.anyOf, fail)
        : it.type === 'string' && it.enum != null ? plainOptions(it.enum, fail)
        : fail('items must be {type: "string", enum} or {anyOf: [{const, title}]}');
      const minItems = optCount(p.minItems, 'minItems', fail);
      const maxItems = optCount(p.maxItems, 'maxItems', fail);
      if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) fail(`minItems ${minItems} is greater than maxItems ${maxItems}`);
      if (dflt !== undefined && (!Array.isArray(dflt) || !dflt.every(v => options.some(o => o.value === v)))) fail('default must list some of the options');
      return { ...base, kind: 'multiselect', options, ...defined({ minItems, maxItems, default: dflt as string[] | undefined }) };
    }
    default:
      return fail(`type ${JSON.stringify(p.type)} is not supported (string, number, integer, boolean or array)`);
  }
}

function plainOptions(list: unknown, fail: (why: string) => never): OptionView[] {
  if (!Array.isArray(list) || list.length === 0 || list.length > LIMITS.options) fail(`enum must list 1 to ${LIMITS.options} strings`);
  const values = list as unknown[];
  if (!values.every(v => typeof v === 'string' && v.length <= LIMITS.value)) fail('enum values must be strings');
  if (new Set(values).size !== values.length) fail('enum values must be unique');
  return (values as string[]).map(v => ({ value: v, label: escapeBidi(v.slice(0, LIMITS.text)) }));
}

function titledOptions(list: unknown, fail: (why: string) => never): OptionView[] {
  if (!Array.isArray(list) || list.length === 0 || list.length > LIMITS.options) fail(`options must list 1 to ${LIMITS.options} entries`);
  const options = (list as unknown[]).map(o => {
    if (!isObject(o) || typeof o.const !== 'string' || o.const.length > LIMITS.value || typeof o.title !== 'string') fail('each option needs a string const and title');
    const e = o as { const: string; title: string };
    return { value: e.const, label: escapeBidi(e.title.slice(0, LIMITS.text)) };
  });
  if (new Set(options.map(o => o.value)).size !== options.length) fail('option values must be unique');
  return options;
}

function optCount(v: unknown, key: string, fail: (why: string) => never): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${key} must be a whole number ≥ 0`);
  return v as number;
}

function optText(v: unknown, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new SchemaError(`${what} must be a string`);
  return escapeBidi(v.length > LIMITS.text ? v.slice(0, LIMITS.text) + '…' : v);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The values a fresh card shows: each field's default, else empty. */
export function initialValues(form: FormView): Record<string, RawValue> {
  const out: Record<string, RawValue> = {};
  for (const f of form.fields) {
    out[f.name] = f.kind === 'boolean' ? f.default ?? false
      : f.kind === 'multiselect' ? [...(f.default ?? [])]
      : f.kind === 'number' ? (f.default === undefined ? '' : String(f.default))
      : f.default ?? '';
  }
  return out;
}

/** A field's error when its value has the wrong type (shown under the field; shared with elicitationCheck.ts). */
export const fieldError = {
  boolean: () => l10n.t('Must be true or false.'),
  list: () => l10n.t('Choose from the list.'),
  number: () => l10n.t('Enter a number.'),
  integer: () => l10n.t('Enter a whole number.'),
  text: () => l10n.t('Enter text.'),
};

/**
 * Turns what the card sent into the content of an `accept` answer: numbers parsed, empty optional
 * fields left out, unknown names dropped. Type errors (text where a number goes) come back per field;
 * everything else is checked against the schema by the host's validator.
 */
export function contentFromValues(form: FormView, values: Readonly<Record<string, RawValue>>): { content: FormContent; errors: Record<string, string> } {
  const content: FormContent = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const v = Object.hasOwn(values, f.name) ? values[f.name] : undefined;
    switch (f.kind) {
      case 'boolean':
        if (typeof v === 'boolean') content[f.name] = v;
        else if (v !== undefined) errors[f.name] = fieldError.boolean();
        else if (f.required) content[f.name] = false;
        break;
      case 'multiselect':
        if (Array.isArray(v)) { if (v.length || f.required) content[f.name] = [...v]; } else if (v !== undefined) errors[f.name] = fieldError.list();
        break;
      case 'number': {
        if (typeof v !== 'string') { if (v !== undefined) errors[f.name] = fieldError.number(); break; }
        const t = v.trim();
        if (!t) break;
        const n = Number(t);
        if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) || !Number.isFinite(n)) errors[f.name] = f.integer ? fieldError.integer() : fieldError.number();
        else content[f.name] = n;
        break;
      }
      default:
        if (typeof v !== 'string') { if (v !== undefined) errors[f.name] = fieldError.text(); break; }
        if (v !== '') content[f.name] = v;
    }
  }
  return { content, errors };
}

/** An `elicitation/create` as its card shows it. */
export interface QuestionView {
  readonly message: string;
  /** Form mode: the fields. */
  readonly form?: FormView;
  /** URL mode: where the agent sends the user (the host is what the card shows big). */
  readonly url?: { readonly href: string; readonly host: string; readonly secure: boolean };
  /** The values last submitted (shown again beside the messages when they were refused). */
  readonly values?: Readonly<Record<string, RawValue>>;
  /** Per field (or '' for the whole form), why the last submission was refused. */
  readonly errors?: Readonly<Record<string, string>>;
  /** accepted / declined / cancelled; `opened` (URL, waiting for the agent) then `completed`. */
  readonly outcome?: 'accepted' | 'declined' | 'cancelled' | 'opened' | 'completed';
  readonly late?: boolean;
}

/** The target of a URL-mode elicitation, or why it is refused: only http(s) URLs, never credentials. */
export function urlTarget(url: unknown): { href: string; host: string; secure: boolean } | { error: string } {
  if (typeof url !== 'string' || url.length > 8192) return { error: 'Refused elicitation: url must be a string of at most 8192 characters' };
  let u: URL;
  try { u = new URL(url); } catch { return { error: 'Refused elicitation: url is not a valid URL' }; }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { error: `Refused elicitation: only http and https URLs are opened, not ${u.protocol}` };
  if (u.username || u.password) return { error: 'Refused elicitation: a URL with a user name or password is not opened' };
  return { href: u.href, host: u.host, secure: u.protocol === 'https:' };
}
