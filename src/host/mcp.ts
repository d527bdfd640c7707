// The user's MCP servers for a session (see common/mcpServers.ts for the rules): reads VS Code's user
// mcp.json (the active profile's own), the `mcp` key of the user settings, each workspace folder's
// .vscode/mcp.json (never in an untrusted workspace: it starts programs) and
// `switchboard.mcpServers` (user settings only), asks `${input:…}` values once and keeps them in
// SecretStorage. A server whose `${env:…}` is unset or whose input is not given is skipped, and
// the conversation and the log say why.
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { escapeBidi } from '../common/bidi';
import { activeProfile, collectMcpServers, McpInputDecl, McpOutcome, McpSource, parseJsonc, resolveMcpServers } from '../common/mcpServers';
import type { Logger } from '../common/logger';
import { SECTION } from './config';

export interface McpForSession {
  readonly servers: acp.McpServer[];
  /** What the conversation shows: passed and skipped servers, with reasons; undefined when none are configured. */
  readonly notice?: string;
}

const SECRET_PREFIX = 'switchboard.mcp.input.';
const IDS_KEY = 'switchboard.mcp.inputIds';

export class McpServers {
  /** Asks the user for an input; replaceable by tests (the prompt is a VS Code input box). */
  ask: (decl: McpInputDecl) => Thenable<string | undefined> = decl => decl.type === 'pickString' && decl.options?.length
    ? vscode.window.showQuickPick([...decl.options], {
      title: vscode.l10n.t('MCP server input "{0}"', decl.id),
      placeHolder: decl.description ?? vscode.l10n.t('Value of the input "{0}" of an MCP server (kept in VS Code\'s secret storage)', decl.id),
      ignoreFocusOut: true,
    })
    : vscode.window.showInputBox({
      title: vscode.l10n.t('MCP server input "{0}"', decl.id),
      prompt: decl.description ?? vscode.l10n.t('Value of the input "{0}" of an MCP server (kept in VS Code\'s secret storage)', decl.id),
      password: decl.password,
      value: decl.password ? undefined : decl.default,
      ignoreFocusOut: true,
    });

  /** id → the value being asked or known in this window (undefined: dismissed, not asked again). */
  private readonly answers = new Map<string, Promise<string | undefined>>();
  private idsWrite: Promise<void> = Promise.resolve();

  constructor(readonly userDir: string, readonly secrets: vscode.SecretStorage, private readonly log: Logger) {}

  /**
   * `<user data>/User`, two levels above our globalStorage folder (VS Code gives every profile the
   * default profile's globalStorage). The default profile's mcp.json is there, a profile's own in
   * `profiles/<id>/`.
   */
  static forContext(context: vscode.ExtensionContext, log: Logger): McpServers {
    return new McpServers(path.resolve(context.globalStorageUri.fsPath, '..', '..'), context.secrets, log);
  }

  /** The servers to pass to `agentName` in session/new, load and resume, and the notice to show. */
  async forSession(agentName: string, caps: acp.McpCapabilities | undefined, trusted = vscode.workspace.isTrusted): Promise<McpForSession> {
    if (disabledFor().includes(agentName)) return { servers: [] };
    const sources: McpSource[] = [];
    const setting = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('mcpServers')?.globalValue;
    sources.push({ label: 'switchboard.mcpServers', value: setting, shape: 'servers', workspaceFolder: firstFolder() });
    let untrustedSkipped = false;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const file = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
      const text = await readText(file);
      if (text === undefined) continue;
      if (!trusted) { untrustedSkipped = true; continue; }
      sources.push({ label: vscode.workspace.asRelativePath(file, true), text, shape: 'file', workspaceFolder: folder.uri.fsPath });
    }
    const user = await this.userMcpFile();
    const userText = await readText(user.file);
    if (userText !== undefined) sources.push({ label: user.label, text: userText, shape: 'file', workspaceFolder: firstFolder() });
    const userMcp = vscode.workspace.getConfiguration().inspect<unknown>('mcp')?.globalValue;
    sources.push({ label: vscode.l10n.t('user settings "mcp"'), value: userMcp, shape: 'file', workspaceFolder: firstFolder() });

    const outcome = await resolveMcpServers(collectMcpServers(sources), caps, {
      env: name => process.env[name],
      input: decl => this.input(decl),
      readFile: async p => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(p))),
      userHome: os.homedir(),
      pathSeparator: path.sep,
    });
    for (const p of outcome.problems) this.log.warn(`MCP: ${p}`);
    for (const s of outcome.skipped) this.log.info(`MCP: skipped ${s.name} (${s.source}): ${s.reason}`);
    this.log.info(`MCP: passing ${outcome.passed.map(p => `${p.name} (${p.type})`).join(', ') || 'no servers'} to ${agentName}`);
    return { servers: outcome.passed.map(p => p.server), notice: describe(agentName, outcome, untrustedSkipped) };
  }

  /**
   * The active profile's mcp.json. Extensions are not told the profile: like other extensions, it
   * is read from VS Code's own record of which profile each workspace uses
   * (`User/globalStorage/storage.json`). With none recorded (the default profile, an empty window),
   * the default `User/mcp.json`.
   */
  async userMcpFile(): Promise<{ file: string; label: string }> {
    const fallback = { file: path.join(this.userDir, 'mcp.json'), label: vscode.l10n.t('user mcp.json') };
    const folders = vscode.workspace.workspaceFolders ?? [];
    const file = vscode.workspace.workspaceFile;
    const workspace = file ? (file.scheme === 'file' ? file : undefined) : folders.length === 1 ? folders[0].uri : undefined;
    if (!workspace) return fallback;
    const storage = await readText(path.join(this.userDir, 'globalStorage', 'storage.json'));
    if (storage === undefined) return fallback;
    const profile = activeProfile(parseJsonc(storage).value, workspace.toString(), process.platform === 'win32' || process.platform === 'darwin');
    if (!profile || profile.sharesDefaultMcp) return fallback;
    return {
      file: path.join(this.userDir, 'profiles', profile.id, 'mcp.json'),
      label: vscode.l10n.t('mcp.json of the profile "{0}"', escapeBidi(profile.name)),
    };
  }

  /** Forgets input values kept in SecretStorage and in this window: those named, else all. */
  async forgetInputs(ids?: readonly string[]): Promise<void> {
    const kept = await this.keptIds();
    for (const id of ids ?? [...kept, ...this.answers.keys()]) {
      this.answers.delete(id);
      kept.delete(id);
      await this.secrets.delete(SECRET_PREFIX + id);
    }
    await this.secrets.store(IDS_KEY, JSON.stringify([...kept]));
  }

  /** SecretStorage cannot list its keys: the ids of kept inputs are kept too. */
  private async keptIds(): Promise<Set<string>> {
    try {
      const v: unknown = JSON.parse((await this.secrets.get(IDS_KEY)) ?? '[]');
      return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  }

  private input(decl: McpInputDecl): Promise<string | undefined> {
    let answer = this.answers.get(decl.id);
    if (!answer) {
      answer = (async () => {
        const kept = await this.secrets.get(SECRET_PREFIX + decl.id);
        if (kept !== undefined) return kept;
        const given = await this.ask(decl);
        if (given !== undefined) {
          await this.secrets.store(SECRET_PREFIX + decl.id, given);
          // Chained: two inputs asked at once must not both rewrite the list from the same old one.
          this.idsWrite = this.idsWrite.then(async () => this.secrets.store(IDS_KEY, JSON.stringify([...(await this.keptIds()).add(decl.id)])));
          await this.idsWrite;
        }
        return given;
      })();
      this.answers.set(decl.id, answer);
    }
    return answer;
  }
}

/** `switchboard.mcp.disabledFor`: agents that get no MCP servers (user settings only). */
function disabledFor(): string[] {
  const v = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('mcp.disabledFor')?.globalValue;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function firstFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file')?.uri.fsPath;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file)));
  } catch {
    return undefined;
  }
}

function describe(agentName: string, o: McpOutcome, untrustedSkipped: boolean): string | undefined {
  const parts: string[] = [];
  const name = (s: string) => escapeBidi(s);
  if (o.passed.length) {
    parts.push(vscode.l10n.t('MCP servers passed to {0}: {1}.', agentName,
      o.passed.map(p => `${name(p.name)} (${p.type}${p.note ? `; ${p.note}` : ''})`).join(', ')));
  }
  for (const s of o.skipped) {
    parts.push(s.type
      ? vscode.l10n.t('Skipped {0} ({1}): {2}.', name(s.name), s.type, escapeBidi(s.reason))
      : vscode.l10n.t('Skipped {0}: {1}.', name(s.name), escapeBidi(s.reason)));
  }
  for (const p of o.problems) parts.push(vscode.l10n.t('Could not read MCP servers from {0}.', escapeBidi(p)));
  if (untrustedSkipped) parts.push(vscode.l10n.t('The workspace .vscode/mcp.json was not read: this workspace is not trusted.'));
  return parts.length ? parts.join(' ') : undefined;
}

let current: McpServers | undefined;
/** Set once at activation (extension.ts). */
export function setMcpServers(m: McpServers): void { current = m; }
/** The servers for a session; none before activation set them up. */
export function mcpForSession(agentName: string, caps: acp.McpCapabilities | undefined): Promise<McpForSession> {
  return current ? current.forSession(agentName, caps) : Promise.resolve({ servers: [] });
}
