// Signing in to an agent from the conversation: when a request answers auth_required, the chat
// shows the agent's auth methods as a card; the chosen one runs (see common/signIn.ts for the
// kinds). API keys live in SecretStorage only, one entry per agent and variable, and reach the
// agent as environment variables when it starts; they are never logged, never sent over ACP.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { AgentProcess } from '../acp/agentProcess';
import type { AgentSpec } from '../common/agentConfig';
import type { Logger } from '../common/logger';
import {
  afterSignIn, EnvVarSpec, keyProblem, parseAuthMethods, parseSecretIndex, secretIndexKey, secretKey, SignInMethod, terminalLogin,
} from '../common/signIn';
import type { AgentRuntime } from './agentRuntime';
import type { ChatSession } from './chatSession';

const NOT_NOW = 'switchboard.notNow';
/** Context key: the chat's "Sign out" entry is shown. */
const CAN_SIGN_OUT = 'switchboard.canSignOut';

export class SignIn {
  /** The key box on screen, if any (the integration tests type into it). */
  input: vscode.InputBox | undefined;

  constructor(private readonly secrets: vscode.SecretStorage, private readonly log: Logger) {}

  /** The keys stored for `agentName`, as environment variables for its process. */
  async env(agentName: string): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    for (const name of await this.storedNames(agentName)) {
      const value = await this.secrets.get(secretKey(agentName, name));
      if (value !== undefined) env[name] = value;
    }
    return env;
  }

  /** A runtime is ready: "Sign out" is offered when its agent has `logout` or keys are stored. */
  async noteRuntime(runtime: AgentRuntime): Promise<void> {
    const can = !!runtime.capabilities.auth?.logout || (await this.storedNames(runtime.spec.name)).length > 0;
    await vscode.commands.executeCommand('setContext', CAN_SIGN_OUT, can);
  }

  /**
   * The agent answered a request with auth_required: asks in the conversation how to sign in and
   * does it. `retry`: signed in on the running agent; `restart`: restart the agent, then retry;
   * undefined: the user said not now, or it failed (said in the conversation).
   */
  async offer(tab: ChatSession, runtime: AgentRuntime): Promise<'retry' | 'restart' | undefined> {
    const name = runtime.spec.name;
    const methods = parseAuthMethods((runtime.info.authMethods ?? []) as unknown[]);
    if (methods.length === 0) {
      tab.addNotice(vscode.l10n.t('{0} asks you to sign in but offers no way to do it here. Sign in to it outside VS Code, then restart it.', name));
      return undefined;
    }
    const options: acp.PermissionOption[] = [
      ...methods.map(m => ({ optionId: `m:${m.id}`, name: label(m), kind: 'allow_once' as const })),
      { optionId: NOT_NOW, name: vscode.l10n.t('Not now'), kind: 'reject_once' },
    ];
    const chosen = await tab.choose(vscode.l10n.t('{0} asks you to sign in. Choose how:', name), options);
    const method = methods.find(m => `m:${m.id}` === chosen);
    if (!method) return undefined;
    this.log.info(`Signing in to ${name} with "${method.id}" (${method.kind})`);
    try {
      switch (method.kind) {
        case 'agent': await runtime.connection.authenticate(method.id); break;
        case 'terminal':
          if (!(await this.terminalLogin(runtime.spec, method, runtime.cwd))) {
            tab.addNotice(vscode.l10n.t('The sign-in in the terminal did not succeed. Send the prompt again to retry.'));
            return undefined;
          }
          break;
        case 'env':
          if (!(await this.askKeys(name, method))) return undefined;
          break;
      }
    } catch (err) {
      tab.addError(vscode.l10n.t('Signing in to {0} failed: {1}', name, err instanceof Error ? err.message : String(err)), undefined, ['showLog']);
      return undefined;
    }
    return afterSignIn(method);
  }

  /**
   * Sign out: `logout` when the running agent offers it, and the keys stored for the agent deleted.
   * Resolves true when keys were deleted (the running agent still has them: it must be stopped).
   */
  async signOut(agentName: string, runtime: AgentRuntime | undefined): Promise<boolean> {
    let loggedOut = false;
    if (runtime?.capabilities.auth?.logout) {
      try {
        await runtime.connection.logout();
        loggedOut = true;
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('{0} could not sign out: {1}', agentName, err instanceof Error ? err.message : String(err)));
      }
    }
    const names = await this.storedNames(agentName);
    for (const n of names) await this.secrets.delete(secretKey(agentName, n));
    await this.secrets.delete(secretIndexKey(agentName));
    this.log.info(`Signed out of ${agentName}${loggedOut ? ' (logout)' : ''}; ${names.length} stored key(s) deleted`);
    if (!loggedOut && names.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} has nothing to sign out of here: it does not offer sign-out and no key is stored for it.', agentName));
    }
    await vscode.commands.executeCommand('setContext', CAN_SIGN_OUT, !!runtime?.capabilities.auth?.logout);
    return names.length > 0;
  }

  /** True when keys are stored for `agentName` (a sign-in done here). */
  async hasKeys(agentName: string): Promise<boolean> {
    return (await this.storedNames(agentName)).length > 0;
  }

  private async storedNames(agentName: string): Promise<string[]> {
    return parseSecretIndex(await this.secrets.get(secretIndexKey(agentName)));
  }

  /** Asks each variable of an env_var method; all required ones given, they are stored. */
  private async askKeys(agentName: string, method: Extract<SignInMethod, { kind: 'env' }>): Promise<boolean> {
    const values: Record<string, string> = {};
    for (const v of method.vars) {
      const value = await this.askKey(agentName, method, v);
      if (value === undefined) {
        if (v.optional) continue;
        return false;
      }
      values[v.name] = value;
    }
    const names = new Set(await this.storedNames(agentName));
    for (const [n, value] of Object.entries(values)) {
      await this.secrets.store(secretKey(agentName, n), value);
      names.add(n);
    }
    await this.secrets.store(secretIndexKey(agentName), JSON.stringify([...names]));
    return true;
  }

  private askKey(agentName: string, method: Extract<SignInMethod, { kind: 'env' }>, v: EnvVarSpec): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = vscode.l10n.t('{0}: {1}', agentName, method.name);
    box.prompt = method.link
      ? vscode.l10n.t('{0} ({1}). Get it at {2}. Kept in VS Code\'s secret storage.', v.label ?? v.name, v.name, method.link)
      : vscode.l10n.t('{0} ({1}). Kept in VS Code\'s secret storage.', v.label ?? v.name, v.name);
    box.password = v.secret;
    box.ignoreFocusOut = true;
    this.input = box;
    return new Promise(resolve => {
      let done = false;
      const finish = (value: string | undefined) => {
        if (done) return;
        done = true;
        if (this.input === box) this.input = undefined;
        resolve(value);
        box.dispose();
      };
      box.onDidChangeValue(value => {
        box.validationMessage = keyProblem(value) === 'lineBreak' ? vscode.l10n.t('The key must be on one line.') : undefined;
      });
      box.onDidAccept(() => { if (!keyProblem(box.value)) finish(box.value.trim()); });
      box.onDidHide(() => finish(undefined));
      box.show();
    });
  }

  /** The agent's own command with the method's args/env, interactive in a terminal; true when it exits 0. */
  private terminalLogin(spec: AgentSpec, method: Extract<SignInMethod, { kind: 'terminal' }>, workspaceCwd: string): Promise<boolean> {
    const plan = terminalLogin(spec, method);
    const terminal = vscode.window.createTerminal({
      name: vscode.l10n.t('{0}: {1}', spec.name, method.name),
      shellPath: plan.command, shellArgs: plan.args, env: plan.env,
      // As for the agent itself: an npx/uvx package never runs from the workspace (its node_modules).
      cwd: AgentProcess.cwdFor(spec, workspaceCwd),
    });
    terminal.show();
    return new Promise(resolve => {
      const sub = vscode.window.onDidCloseTerminal(t => {
        if (t !== terminal) return;
        sub.dispose();
        resolve(t.exitStatus?.code === 0);
      });
    });
  }
}

function label(m: SignInMethod): string {
  switch (m.kind) {
    case 'agent': return m.name;
    case 'terminal': return vscode.l10n.t('{0} (in a terminal)', m.name);
    case 'env': return vscode.l10n.t('{0} (enter {1})', m.name, m.vars.map(v => v.name).join(', '));
  }
}
