// Signing in to an agent, without VS Code: the auth methods an agent advertises (validated: the
// agent is untrusted input), how an auth_required (-32000) answer is recognised, where API keys are
// kept, and how many sign-ins one request may take before Switchboard gives up.
//
// Three kinds of method (ACP `AuthMethod`, plus the `env_var` kind of the auth-methods RFD that
// current adapters already send):
// - agent: the client calls `authenticate({methodId})`, then retries the request;
// - terminal: the client reruns the agent's own command with the method's args/env in an
//   interactive terminal; exit 0 means signed in: restart the agent, retry (never `authenticate`);
// - env_var: the user enters a key; the agent is restarted with it in its environment.
import type { Logger } from './logger';

/** ACP's "Authentication required" error code. */
export const AUTH_REQUIRED = -32000;

/** How many sign-ins one request may take before it fails for good. */
export const MAX_SIGN_INS = 2;

export interface EnvVarSpec {
  readonly name: string;
  readonly label?: string;
  /** Asked with a password box unless the agent says it is not a secret. */
  readonly secret: boolean;
  readonly optional: boolean;
}

export type SignInMethod =
  | { readonly kind: 'agent'; readonly id: string; readonly name: string; readonly description?: string }
  | { readonly kind: 'terminal'; readonly id: string; readonly name: string; readonly description?: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> }
  | { readonly kind: 'env'; readonly id: string; readonly name: string; readonly description?: string; readonly vars: readonly EnvVarSpec[]; readonly link?: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_TEXT = 200;
const MAX_METHODS = 20;

const text = (v: unknown): string | undefined =>
  // Control characters out (a name is one line); length bounded.
  typeof v === 'string' && v.trim() ? v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, MAX_TEXT) : undefined;

/**
 * The agent's `authMethods` as Switchboard can use them. Malformed entries, unknown types, env
 * names that are not variable names and duplicate ids are dropped; at most 20 methods.
 */
export function parseAuthMethods(raw: unknown): SignInMethod[] {
  if (!Array.isArray(raw)) return [];
  const out: SignInMethod[] = [];
  const ids = new Set<string>();
  for (const m of raw) {
    if (out.length >= MAX_METHODS) break;
    if (typeof m !== 'object' || m === null) continue;
    const r = m as Record<string, unknown>;
    const id = typeof r.id === 'string' && r.id.length > 0 && r.id.length <= MAX_TEXT ? r.id : undefined;
    const name = text(r.name);
    if (!id || !name || ids.has(id)) continue;
    const description = text(r.description);
    const base = { id, name, ...(description ? { description } : {}) };
    const type = r.type ?? 'agent';
    if (type === 'agent') {
      out.push({ kind: 'agent', ...base });
    } else if (type === 'terminal') {
      const args = r.args ?? [];
      const env = r.env ?? {};
      if (!Array.isArray(args) || !args.every(a => typeof a === 'string' && !a.includes('\0'))) continue;
      if (typeof env !== 'object' || env === null || Array.isArray(env)) continue;
      const entries = Object.entries(env as Record<string, unknown>);
      if (!entries.every(([k, v]) => ENV_NAME.test(k) && typeof v === 'string' && !v.includes('\0'))) continue;
      out.push({ kind: 'terminal', ...base, args: args as string[], env: Object.fromEntries(entries) as Record<string, string> });
    } else if (type === 'env_var') {
      const vars = envVars(r);
      if (!vars) continue;
      const link = typeof r.link === 'string' && /^https:\/\/[^\s]+$/i.test(r.link) && r.link.length <= 2000 ? r.link : undefined;
      out.push({ kind: 'env', ...base, vars, ...(link ? { link } : {}) });
    } else {
      continue; // a kind this client does not know
    }
    ids.add(id);
  }
  return out;
}

/** `vars: [{name, label?, secret?, optional?}]` (the RFD's current shape) or `varName` (its first). */
function envVars(r: Record<string, unknown>): EnvVarSpec[] | undefined {
  const list = Array.isArray(r.vars) ? r.vars : typeof r.varName === 'string' ? [{ name: r.varName }] : undefined;
  if (!list || list.length === 0 || list.length > 10) return undefined;
  const vars: EnvVarSpec[] = [];
  for (const v of list) {
    if (typeof v !== 'object' || v === null) return undefined;
    const o = v as Record<string, unknown>;
    if (typeof o.name !== 'string' || !ENV_NAME.test(o.name)) return undefined;
    const label = text(o.label);
    vars.push({ name: o.name, ...(label ? { label } : {}), secret: o.secret !== false, optional: o.optional === true });
  }
  return vars;
}

/** Whether an error is the agent's "Authentication required" answer (-32000). */
export function isAuthRequired(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === AUTH_REQUIRED;
}

/** The SecretStorage key of one variable of one agent (JSON: no name can collide with another). */
export function secretKey(agentName: string, varName: string): string {
  return `switchboard.agentEnv:${JSON.stringify([agentName, varName])}`;
}

/** The SecretStorage key listing the variables stored for one agent (SecretStorage cannot list keys). */
export function secretIndexKey(agentName: string): string {
  return `switchboard.agentEnvNames:${JSON.stringify(agentName)}`;
}

/** The stored index, read defensively: a list of variable names. */
export function parseSecretIndex(stored: string | undefined): string[] {
  try {
    const v: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(v) ? [...new Set(v.filter((n): n is string => typeof n === 'string' && ENV_NAME.test(n)))] : [];
  } catch {
    return [];
  }
}

/** A key as entered: one line, no NUL; empty means nothing was entered. */
export function keyProblem(value: string): string | undefined {
  if (!value.trim()) return 'empty';
  if (/[\0\r\n]/.test(value)) return 'lineBreak';
  return undefined;
}

/** The interactive login of a terminal method: the agent's own command, its args then the method's, env on top. */
export function terminalLogin(
  agent: { command: string; args: readonly string[]; env: Readonly<Record<string, string>> },
  method: Extract<SignInMethod, { kind: 'terminal' }>,
): { command: string; args: string[]; env: Record<string, string> } {
  return { command: agent.command, args: [...agent.args, ...method.args], env: { ...agent.env, ...method.env } };
}

/**
 * What a sign-in leads to: `retry` the request on the running agent (after `authenticate`), or
 * `restart` the agent first (a terminal login or a new key changes what the agent sees at start).
 */
export function afterSignIn(method: SignInMethod): 'retry' | 'restart' {
  return method.kind === 'agent' ? 'retry' : 'restart';
}

/** `text` with every secret value (4 characters or more) replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4 && out.includes(s)) out = out.split(s).join('***');
  return out;
}

/** A logger that never writes the given secrets (an agent may echo its key on stderr or stdout). */
export function redactingLogger(log: Logger, secrets: readonly string[]): Logger {
  if (!secrets.some(s => s.length >= 4)) return log;
  return {
    trace: m => log.trace(redact(m, secrets)),
    info: m => log.info(redact(m, secrets)),
    warn: m => log.warn(redact(m, secrets)),
    error: m => log.error(redact(m, secrets)),
    get traceEnabled() { return log.traceEnabled; },
  };
}
