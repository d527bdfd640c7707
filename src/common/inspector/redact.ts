// Secrets out of the inspector's record, before it is stored: the values of MCP servers' env and
// headers (tokens in MCP configs), the env a `terminal/create` names with a secret-like name, and
// every known secret string wherever it appears (the keys the user signed in with, from
// SecretStorage, and the agent's configured env values with secret-like names), also as they look
// escaped inside a JSON string.

export const REDACTED = '***';

/** Env and header names that hold credentials. */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|bearer|session/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The values of an env map whose names look like credentials (the agent's `env` setting). */
export function secretEnvValues(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(env ?? {}).filter(([name, value]) => isSecretName(name) && typeof value === 'string').map(([, v]) => v);
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Methods whose params carry MCP server configs. */
const MCP_METHODS = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);

/**
 * Whether a message may carry config secrets (a method-name check, cheap enough for every message,
 * so the secrets are learnt even while nothing records and redacted once recording starts).
 */
export function mayCarrySecrets(message: unknown): boolean {
  const method = isObj(message) ? message.method : undefined;
  return typeof method === 'string' && (MCP_METHODS.has(method) || method === 'terminal/create');
}

/**
 * A copy of the message with the config secrets it carries replaced (the original is untouched, it
 * is on its way to the agent), and those secret values, so they are redacted wherever they recur.
 * Returns the message itself when it carries none (the common case: no copy).
 */
export function redactStructure(message: unknown): { message: unknown; found: string[] } {
  if (!isObj(message) || typeof message.method !== 'string' || !isObj(message.params)) return { message, found: [] };
  const params = message.params;
  const found: string[] = [];
  if (MCP_METHODS.has(message.method) && Array.isArray(params.mcpServers)) {
    const servers = params.mcpServers.map(s => {
      if (!isObj(s)) return s;
      const out: Json = { ...s };
      for (const field of ['env', 'headers']) {
        const list = s[field];
        if (Array.isArray(list)) out[field] = list.map(v => hideValue(v, found, true));
      }
      return out;
    });
    return { message: { ...message, params: { ...params, mcpServers: servers } }, found };
  }
  if (message.method === 'terminal/create' && Array.isArray(params.env)) {
    return { message: { ...message, params: { ...params, env: params.env.map(v => hideValue(v, found, false)) } }, found };
  }
  return { message, found };
}

/** `{name, value}` with the value hidden (always, or when the name looks secret). */
function hideValue(v: unknown, found: string[], always: boolean): unknown {
  if (!isObj(v) || typeof v.value !== 'string') return v;
  if (!always && !(typeof v.name === 'string' && isSecretName(v.name))) return v;
  if (v.value.length) found.push(v.value);
  return { ...v, value: REDACTED };
}

/** Secret strings shorter than this are not searched for (they would hide ordinary text). */
export const MIN_SECRET_LENGTH = 6;

/** What to look for of each secret: the text itself and, when it differs, as escaped in a JSON string. */
export function secretPatterns(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    out.add(s);
    out.add(JSON.stringify(s).slice(1, -1));
  }
  return [...out];
}

/** Replaces every pattern (see secretPatterns) in the JSON text. */
export function redactPatterns(text: string, patterns: readonly string[]): string {
  let out = text;
  for (const p of patterns) if (out.includes(p)) out = out.split(p).join(REDACTED);
  return out;
}

/** Replaces each secret in the JSON text, raw and as escaped in a JSON string. */
export function redactText(text: string, secrets: Iterable<string>): string {
  return redactPatterns(text, secretPatterns(secrets));
}
