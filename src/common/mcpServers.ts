// The user's MCP servers, handed to the agent in session/new, load and resume. Pure: the host reads
// the files and settings and asks for inputs; this module parses (JSONC, with the library VS Code
// uses), merges, resolves variables and keeps what the agent's mcpCapabilities accept.
//
// Sources, strongest first: the `switchboard.mcpServers` setting, each workspace folder's
// .vscode/mcp.json (only in a trusted workspace: it starts programs), the user's mcp.json, the
// `mcp` key of the user settings. A name defined in several sources takes the strongest one.
// Problems and reasons are localized: the host shows them in the chat (src/host/mcp.ts).
import * as l10n from '@vscode/l10n';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type * as acp from '@agentclientprotocol/sdk/unstable';

export type McpTransport = 'stdio' | 'http' | 'sse';

export interface McpInputDecl {
  readonly id: string;
  /** As in VS Code's mcp.json: `promptString` (the default), `pickString`, `command` (not resolvable here). */
  readonly type: string;
  readonly description?: string;
  readonly password: boolean;
  /** A pickString's choices (their values). */
  readonly options?: readonly string[];
  readonly default?: string;
}

/** One place servers are defined, already read (`text` for a file, `value` for a setting). */
export interface McpSource {
  /** Shown to the user, e.g. "workspace .vscode/mcp.json". */
  readonly label: string;
  readonly text?: string;
  readonly value?: unknown;
  /** A setting holds the servers themselves (`{name: server}`), a file `{servers, inputs}`. */
  readonly shape: 'file' | 'servers';
  /** What `${workspaceFolder}` means for this source's servers. */
  readonly workspaceFolder?: string;
}

export interface McpEntry {
  readonly name: string;
  readonly source: string;
  readonly raw: unknown;
  readonly workspaceFolder?: string;
}

export interface McpCollected {
  readonly entries: readonly McpEntry[];
  readonly inputs: ReadonlyMap<string, McpInputDecl>;
  /** One line per source that could not be read, e.g. `user mcp.json: InvalidSymbol at offset 12`. */
  readonly problems: readonly string[];
}

export interface McpPassed {
  readonly name: string;
  readonly type: McpTransport;
  readonly source: string;
  readonly server: acp.McpServer;
  /** What the agent gets differently from the file (e.g. a `cwd` ACP cannot carry). */
  readonly note?: string;
}

export interface McpSkipped {
  readonly name: string;
  readonly type?: McpTransport;
  readonly source: string;
  readonly reason: string;
}

export interface McpOutcome {
  readonly passed: readonly McpPassed[];
  readonly skipped: readonly McpSkipped[];
  readonly problems: readonly string[];
}

/** What resolving needs from the host. */
export interface McpResolver {
  env(name: string): string | undefined;
  /** The value of an input, asked once (undefined: the user dismissed it). */
  input(decl: McpInputDecl): Promise<string | undefined>;
  /** The text of an envFile; throws when it cannot be read. */
  readFile(path: string): Promise<string>;
  readonly userHome?: string;
  readonly pathSeparator?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses JSONC as VS Code does (comments, trailing commas); errors as readable lines. */
export function parseJsonc(text: string): { value: unknown; errors: string[] } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { value, errors: errors.map(e => l10n.t({ message: '{0} at offset {1}', args: [printParseErrorCode(e.error), e.offset], comment: ['A JSON syntax error: {0} is its code (e.g. CommaExpected, keep it), {1} the character offset in the file.'] })) };
}

/** Merges the sources, strongest first: the first definition of a name wins. */
export function collectMcpServers(sources: readonly McpSource[]): McpCollected {
  const byName = new Map<string, McpEntry>();
  const inputs = new Map<string, McpInputDecl>();
  const problems: string[] = [];
  for (const src of sources) {
    let value = src.value;
    if (src.text !== undefined) {
      if (!src.text.trim()) continue;
      const parsed = parseJsonc(src.text);
      if (parsed.errors.length) { problems.push(`${src.label}: ${parsed.errors.slice(0, 3).join(', ')}`); continue; }
      value = parsed.value;
    }
    if (value === undefined || value === null) continue;
    if (!isObject(value)) { problems.push(l10n.t({ message: '{0}: expected an object', args: [src.label], comment: ['A problem in a file or setting of MCP servers, after its name ("{0}: …"). Words in quotes are JSON keys: keep them.'] })); continue; }
    const servers = src.shape === 'file' ? value.servers : value;
    if (src.shape === 'file') {
      const decl = value.inputs;
      if (decl !== undefined && !Array.isArray(decl)) problems.push(l10n.t({ message: '{0}: "inputs" must be an array', args: [src.label], comment: ['A problem in a file or setting of MCP servers, after its name ("{0}: …"). Words in quotes are JSON keys: keep them.'] }));
      for (const i of Array.isArray(decl) ? decl : []) {
        if (!isObject(i) || typeof i.id !== 'string' || !i.id) { problems.push(l10n.t({ message: '{0}: an input needs a string "id"', args: [src.label], comment: ['A problem in a file or setting of MCP servers, after its name ("{0}: …"). Words in quotes are JSON keys: keep them.'] })); continue; }
        if (!inputs.has(i.id)) inputs.set(i.id, inputDecl(i as Record<string, unknown> & { id: string }));
      }
    }
    if (servers === undefined || servers === null) continue;
    if (!isObject(servers)) { problems.push(l10n.t({ message: '{0}: "servers" must be an object', args: [src.label], comment: ['A problem in a file or setting of MCP servers, after its name ("{0}: …"). Words in quotes are JSON keys: keep them.'] })); continue; }
    for (const [name, raw] of Object.entries(servers)) {
      if (!byName.has(name)) byName.set(name, { name, source: src.label, raw, workspaceFolder: src.workspaceFolder });
    }
  }
  return { entries: [...byName.values()], inputs, problems };
}

/** An entry of `inputs`: a pickString's options may be strings or `{ value, label }`. */
function inputDecl(i: Record<string, unknown> & { id: string }): McpInputDecl {
  const options = Array.isArray(i.options)
    ? i.options.map(o => (typeof o === 'string' ? o : isObject(o) && typeof o.value === 'string' ? o.value : undefined)).filter((o): o is string => o !== undefined)
    : undefined;
  return {
    id: i.id,
    type: typeof i.type === 'string' ? i.type : 'promptString',
    description: typeof i.description === 'string' ? i.description : undefined,
    password: i.password === true,
    ...(options ? { options } : {}),
    ...(typeof i.default === 'string' ? { default: i.default } : {}),
  };
}

/** The transport an entry asks for: `type`, else stdio with a command, http with a url. */
export function transportOf(raw: unknown): McpTransport | undefined {
  if (!isObject(raw)) return undefined;
  if (raw.type === 'stdio' || raw.type === 'http' || raw.type === 'sse') return raw.type;
  if (raw.type !== undefined) return undefined;
  if (typeof raw.command === 'string') return 'stdio';
  if (typeof raw.url === 'string') return 'http';
  return undefined;
}

class Skip extends Error {}

/**
 * Validates each entry, keeps what the agent accepts (stdio always; http and sse only when its
 * mcpCapabilities say so), then resolves variables. Inputs are asked only for servers that pass.
 */
export async function resolveMcpServers(collected: McpCollected, caps: acp.McpCapabilities | undefined, r: McpResolver): Promise<McpOutcome> {
  const passed: McpPassed[] = [];
  const skipped: McpSkipped[] = [];
  for (const entry of collected.entries) {
    const { name, source, raw } = entry;
    if (raw === null || raw === false) continue; // a stronger source hides a server by name
    const type = transportOf(raw);
    if (!type || !isObject(raw)) {
      skipped.push({ name, source, reason: isObject(raw) && raw.type !== undefined
        ? l10n.t({ message: 'unknown type {0} (use stdio, http or sse)', args: [JSON.stringify(raw.type)], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.'] })
        : l10n.t({ message: 'needs a "command" (stdio) or a "url" (http, sse)', comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.'] }) });
      continue;
    }
    if (type !== 'stdio' && caps?.[type] !== true) {
      skipped.push({ name, type, source, reason: l10n.t({ message: 'the agent does not accept {0} MCP servers', args: [type], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a transport: http or sse.'] }) });
      continue;
    }
    try {
      const vars = new Variables(entry, collected.inputs, r);
      if (type === 'stdio') {
        const command = await vars.text(requireString(raw.command, '"command"'));
        const args = await vars.list(stringList(raw.args, '"args"'));
        const env = new Map<string, string>();
        if (raw.envFile !== undefined) {
          const file = await vars.text(requireString(raw.envFile, '"envFile"'));
          let text: string;
          try { text = await r.readFile(file); } catch (e) { throw new Skip(l10n.t({ message: 'cannot read its envFile {0}: {1}', args: [file, e instanceof Error ? e.message : String(e)], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a file path, {1} the error from the system.'] })); }
          for (const [k, v] of parseDotenv(text)) env.set(k, v);
        }
        for (const [k, v] of Object.entries(stringMap(raw.env, '"env"', true))) env.set(k, await vars.text(v));
        passed.push({
          name, type, source,
          server: { name, command, args, env: [...env].map(([n, value]) => ({ name: n, value })) },
          note: raw.cwd !== undefined ? l10n.t({ message: 'its "cwd" is not part of ACP and was left out', comment: ['A note on an MCP server passed to the agent, in parentheses after its transport. Keep "cwd" and ACP.'] }) : undefined,
        });
      } else {
        const url = await vars.text(requireString(raw.url, '"url"'));
        if (!/^https?:\/\//i.test(url)) throw new Skip(l10n.t({ message: '"url" must start with http:// or https://', comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.'] }));
        const headers: acp.HttpHeader[] = [];
        for (const [k, v] of Object.entries(stringMap(raw.headers, '"headers"', false))) headers.push({ name: k, value: await vars.text(v) });
        passed.push({ name, type, source, server: { type, name, url, headers } });
      }
    } catch (e) {
      if (!(e instanceof Skip)) throw e;
      skipped.push({ name, type, source, reason: e.message });
    }
  }
  return { passed, skipped, problems: collected.problems };
}

function requireString(v: unknown, what: string): string {
  if (typeof v !== 'string' || !v.trim()) throw new Skip(l10n.t({ message: '{0} must be a non-empty string', args: [what], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a key of the server entry in quotes ("command", "args"…).'] }));
  return v;
}

function stringList(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every(a => typeof a === 'string')) throw new Skip(l10n.t({ message: '{0} must be an array of strings', args: [what], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a key of the server entry in quotes ("command", "args"…).'] }));
  return v;
}

/** `{k: string}`; env values may also be numbers (as VS Code allows), null drops the variable. */
function stringMap(v: unknown, what: string, numbers: boolean): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new Skip(l10n.t({ message: '{0} must be an object of strings', args: [what], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a key of the server entry in quotes ("command", "args"…).'] }));
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null && numbers) continue;
    if (typeof x === 'string') out[k] = x;
    else if (numbers && typeof x === 'number') out[k] = String(x);
    else throw new Skip(l10n.t({ message: '{0}.{1} must be a string', args: [what, k], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a key of the server entry in quotes ("env", "headers"), {1} the name of one of its entries.'] }));
  }
  return out;
}

/** `KEY=value` lines; `#` comments, `export ` prefixes and surrounding quotes are allowed. */
export function parseDotenv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    let v = m[2];
    const q = /^(['"])([\s\S]*)\1$/.exec(v);
    if (q) v = q[1] === '"' ? q[2].replace(/\\n/g, '\n') : q[2];
    else v = v.replace(/\s+#.*$/, '');
    out.set(m[1], v);
  }
  return out;
}

/** `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`/`${/}`, `${env:X}`, `${input:id}`. */
class Variables {
  constructor(private readonly entry: McpEntry, private readonly inputs: ReadonlyMap<string, McpInputDecl>, private readonly r: McpResolver) {}

  async list(values: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const v of values) out.push(await this.text(v));
    return out;
  }

  async text(value: string): Promise<string> {
    let out = '';
    let last = 0;
    for (const m of value.matchAll(/\$\{([^}]+)\}/g)) {
      out += value.slice(last, m.index) + await this.variable(m[1]);
      last = m.index! + m[0].length;
    }
    return out + value.slice(last);
  }

  private async variable(v: string): Promise<string> {
    const folder = this.entry.workspaceFolder;
    const sep = this.r.pathSeparator ?? '/';
    switch (v) {
      case 'workspaceFolder':
        if (!folder) throw new Skip(l10n.t({ message: 'uses {0}, but no folder is open', args: ['${workspaceFolder}'], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a variable of the entry, such as ${workspaceFolder}.'] }));
        return folder;
      case 'workspaceFolderBasename':
        if (!folder) throw new Skip(l10n.t({ message: 'uses {0}, but no folder is open', args: ['${workspaceFolderBasename}'], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a variable of the entry, such as ${workspaceFolder}.'] }));
        return folder.split(/[\\/]/).filter(Boolean).pop() ?? folder;
      case 'userHome':
        if (!this.r.userHome) throw new Skip(l10n.t({ message: 'uses {0}, which is unknown here', args: ['${userHome}'], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is the variable ${userHome} of the entry.'] }));
        return this.r.userHome;
      case 'pathSeparator': case '/':
        return sep;
    }
    if (v.startsWith('env:')) {
      // An unset variable is not an empty one: the server would start without what it needs.
      const name = v.slice(4);
      const value = this.r.env(name);
      if (value === undefined) throw new Skip(l10n.t({ message: 'the environment variable {0} is not set', args: [name], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is the name of an environment variable (from ${env:NAME}).'] }));
      return value;
    }
    if (v.startsWith('input:')) {
      const id = v.slice(6);
      const decl = this.inputs.get(id) ?? { id, type: 'promptString', password: true };
      if (decl.type === 'command') throw new Skip(l10n.t({ message: 'the input "{0}" is computed by a VS Code command, which Switchboard cannot run', args: [id], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is the id of an input of type "command" in mcp.json.'] }));
      if (decl.type !== 'promptString' && decl.type !== 'pickString') throw new Skip(l10n.t({ message: 'the input "{0}" has the type {1}, which Switchboard does not resolve', args: [id, JSON.stringify(decl.type)], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is the id of an input, {1} its "type" in quotes.'] }));
      const answer = await this.r.input(decl);
      if (answer === undefined) throw new Skip(l10n.t({ message: 'the input "{0}" was not given', args: [id], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is the id of an input the user was asked for (a password, a key…).'] }));
      return answer;
    }
    throw new Skip(l10n.t({ message: 'uses {0}, which Switchboard does not resolve', args: ['${' + v + '}'], comment: ['Why an MCP server was not passed to the agent, shown as {2} in "Skipped {0} ({1}): {2}." (lower case, no final period). Words in quotes and ${…} are JSON keys and variables: keep them.', '{0} is a variable of the entry, such as ${config:x}.'] }));
  }
}

/** The VS Code profile a window uses, as its storage.json records it. */
export interface ActiveProfile {
  /** The folder name under `User/profiles/`. */
  readonly id: string;
  readonly name: string;
  /** The profile was made to use the default profile's MCP servers (`useDefaultFlags.mcp`). */
  readonly sharesDefaultMcp: boolean;
}

/**
 * The profile associated with a workspace in VS Code's `User/globalStorage/storage.json`
 * (`profileAssociations.workspaces`: workspace URI → profile id; `userDataProfiles`: the profiles,
 * each `location` its folder name, or a URI in older versions). Undefined: the default profile (or
 * nothing recorded, e.g. an empty window). `workspace` is the folder's URI, or the .code-workspace
 * file's, as a string.
 */
export function activeProfile(storage: unknown, workspace: string | undefined, ignoreCase = false): ActiveProfile | undefined {
  if (!workspace || !isObject(storage)) return undefined;
  const assoc = isObject(storage.profileAssociations) && isObject(storage.profileAssociations.workspaces) ? storage.profileAssociations.workspaces : {};
  const same = (a: string) => (ignoreCase ? a.toLowerCase() === workspace.toLowerCase() : a === workspace);
  const id = Object.entries(assoc).find(([k, v]) => same(k) && typeof v === 'string')?.[1] as string | undefined;
  if (!id || id === '__default__profile__') return undefined;
  const profiles = Array.isArray(storage.userDataProfiles) ? storage.userDataProfiles : [];
  for (const p of profiles) {
    if (!isObject(p) || typeof p.name !== 'string') continue;
    const loc = typeof p.location === 'string' ? p.location : isObject(p.location) && typeof p.location.path === 'string' ? p.location.path : undefined;
    const folder = loc?.split('/').filter(Boolean).pop();
    if (folder !== id || !/^[\w.-]+$/.test(folder) || /^\.+$/.test(folder)) continue; // a folder name, never a path
    return { id: folder, name: p.name, sharesDefaultMcp: isObject(p.useDefaultFlags) && p.useDefaultFlags.mcp === true };
  }
  return undefined;
}
