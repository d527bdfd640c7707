// Composition root: creates the log, the services, the chat controller and its views, and
// registers the commands. Nothing else lives here.
import * as vscode from 'vscode';
import { AgentProcess } from './acp/agentProcess';
import type { ConnectionServicesFactory } from './acp/clientServices';
import { StartupGate } from './common/startupGate';
import { agentPickerUi } from './host/agentPicker';
import { openSettings, Settings } from './host/config';
import { setRegistryAgentSource } from './host/installedAgents';
import { registerCommand, registerEarly, unhandledCommands } from './host/commands';
import { configureCommonL10n } from './host/l10n';
import { LazyLogChannel, listenerGuard } from './host/log';
import { FsService } from './host/fs/fsService';
import { McpServers, setMcpServers } from './host/mcp';
import { joinWaits, WaitingAlert } from './host/waitingAlert';
import type { AgentRegistry } from './host/registry/agentRegistry';
import { Checkpoints } from './host/checkpoints/checkpoints';
import { ChangeTracker } from './host/review/changeTracker';
import { ReviewUi } from './host/review/reviewUi';
import { AgentTerminals, combineTerminalViews } from './host/terminal/agentTerminals';
import { TerminalService } from './host/terminal/terminalService';
import { ToolDiffs } from './host/toolDiffs';
import { openWalkthrough } from './host/walkthrough';
import { ModeChoices } from './session/modeChoices';
import { ChatController } from './session/chatController';
import { SavedChats } from './session/savedChats';
import { SignIn } from './session/signIn';
import { AgentsView } from './views/agentsView';
import { CHAT_VIEW_ID, ChatViewProvider, EDITOR_VIEW_TYPE } from './views/chatViewProvider';
import { CHILD_VIEW_TYPE } from './views/childTabs';
import { registerTitleCommands } from './views/titleCommands';
import { protocolTraffic } from './acp/protocolTap';
import { InspectorPanel } from './views/inspectorPanel';
import { FollowAgent } from './session/follow/followAgent';
import { askRuns } from './session/parallel/askRuns';
import { BASE_SCHEME, PARALLEL_WAITER, ParallelRuns } from './session/parallel/parallelRuns';
import { ParallelPanels } from './views/parallelPanel';

/** Handed to integration tests through `extension.exports`; not a public API. */
export interface SwitchboardApi {
  readonly chat: ChatController;
  readonly files: FsService;
  readonly view: ChatViewProvider;
  /** Agent terminals; also what the chat card renders for `{type: "terminal", terminalId}`. */
  readonly terminals: TerminalService;
  /** The agent's changes per turn, kept or undone hunk by hunk. */
  readonly review: ChangeTracker;
  /** The user's MCP servers passed in session/new, load and resume. */
  readonly mcp: McpServers;
  /** Commands the agent runs itself (`_meta.terminal_*` on its tool calls). */
  readonly agentTerminals: AgentTerminals;
  /** Sign-in to agents (auth methods, stored keys). */
  readonly signIn: SignIn;
  /** Agents installed from the ACP registry (Add / Update / Remove Agent). */
  readonly registry: AgentRegistry;
  /** The agent picker's quick pick (replaceable by tests). */
  readonly agentPicker: typeof agentPickerUi;
  /** The Agents view: each agent, its conversations and what they do; what waits for the user. */
  readonly agents: AgentsView;
  /** The status-bar item and notifications for conversations waiting for the user. */
  readonly waiting: WaitingAlert;
  /** The workspace's files before each turn, restored from the chat (host/checkpoints). */
  readonly checkpoints: Checkpoints;
  /** The folder VS Code writes this extension's log to (the Output channel "Switchboard"). */
  readonly logUri: vscode.Uri;
  /** The protocol inspector and the traffic it shows. */
  readonly inspector: InspectorPanel;
  readonly traffic: typeof protocolTraffic;
  /** Follow the agent (the editor shows the file of each tool call). */
  readonly follow: FollowAgent;
  /** Run in Parallel: sets of runs in git worktrees, and their side-by-side panels. */
  readonly parallel: ParallelRuns;
  readonly parallelPanels: ParallelPanels;
  /** Run in Parallel's questions (agents, models, prompt); tests replace it. */
  askRuns: typeof askRuns;
  /** Contributed commands with no handler once the services are built (host/commands; none expected). */
  unhandledCommands(): string[];
}

let controller: ChatController | undefined;
let terminalService: TerminalService | undefined;

/** What activation builds (the second half: see activate). */
type Services = Omit<SwitchboardApi, 'registry' | 'agentPicker' | 'logUri' | 'traffic' | 'askRuns' | 'unhandledCommands'> & { loadRegistry(): AgentRegistry };

export function activate(context: vscode.ExtensionContext): SwitchboardApi {
  configureCommonL10n();
  // What the chat's first state does not need waits for it (the Changes and Agents trees, the log's
  // channel): opening the view container activates us, and the workbench lays out the chat
  // meanwhile (common/startupGate).
  const startup = new StartupGate();
  const channel = new LazyLogChannel('Switchboard', startup.opened);
  context.subscriptions.push(channel);

  // Activation in two halves (docs/decisions/0041). What VS Code looks for once activate() returns
  // is registered now: the chat view's provider, the editor tabs' serializers and every contributed
  // command (host/commands). The services behind them are built on the next turn of the event loop,
  // once VS Code has been told activation is done (its window then lays out the view while this
  // host builds, instead of waiting for it), or at once when one of them is used first.
  let services: Services | undefined;
  let failed: { error: unknown } | undefined;
  const built = (): Services => {
    if (failed) throw failed.error;
    try {
      return (services ??= build(context, startup, channel, () => api.askRuns));
    } catch (error) {
      failed = { error };
      channel.log.error(`Switchboard could not start: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      throw error;
    }
  };
  const contributed = ((context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? []).map(c => c.command);
  context.subscriptions.push(
    ...registerEarly(contributed, () => { built(); }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, { resolveWebviewView: view => built().view.resolveWebviewView(view) }),
    vscode.window.registerWebviewPanelSerializer(EDITOR_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state) => built().view.restorePanel(panel, state) }),
    vscode.window.registerWebviewPanelSerializer(CHILD_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state) => built().view.childTabs.restore(panel, state) }),
  );
  // Set after the registrations above, so it runs after the timer on which VS Code sends them and
  // its answer that activation is done (same delay: first in, first out).
  const second = setTimeout(() => {
    try {
      built();
    } catch (error) {
      // What activate() failing used to show; the error is in the log, and each use throws it again.
      const openLog = vscode.l10n.t('Open Log');
      void vscode.window.showErrorMessage(vscode.l10n.t('Switchboard could not start: {0}', error instanceof Error ? error.message : String(error)), openLog)
        .then(choice => { if (choice === openLog) channel.show(); });
    }
  }, 0);
  // Deactivated before it ran (the window closing at once): nothing is built then.
  context.subscriptions.push({ dispose: () => clearTimeout(second) });

  // Tests' handle; what it names is built on first use.
  const api: SwitchboardApi = {
    get chat() { return built().chat; },
    get view() { return built().view; },
    get agents() { return built().agents; },
    get waiting() { return built().waiting; },
    get files() { return built().files; },
    get terminals() { return built().terminals; },
    get review() { return built().review; },
    get checkpoints() { return built().checkpoints; },
    get mcp() { return built().mcp; },
    get agentTerminals() { return built().agentTerminals; },
    get signIn() { return built().signIn; },
    get inspector() { return built().inspector; },
    get follow() { return built().follow; },
    get parallel() { return built().parallel; },
    get parallelPanels() { return built().parallelPanels; },
    get registry() { return built().loadRegistry(); },
    agentPicker: agentPickerUi, logUri: context.logUri, traffic: protocolTraffic, askRuns,
    unhandledCommands: () => { built(); return unhandledCommands(); },
  };
  return api;
}

/** The services, their views and the handlers of the commands (activation's second half). */
function build(context: vscode.ExtensionContext, startup: StartupGate, channel: LazyLogChannel, askRunsNow: () => typeof askRuns): Services {
  const log = channel.log;
  // Each listener of the agent's updates on its own: one that throws never stops the others.
  const guard = listenerGuard(log);
  // npx/uvx agents start here, never in the workspace (whose node_modules could substitute them).
  AgentProcess.launchDir = context.globalStorageUri.fsPath;

  // What each agent connection serves besides the chat (fs, terminals); see acp/clientServices.ts.
  // fs/*: reads of what the user sees, writes reviewed in a diff (host/fs). The chat renders
  // files.onDidChangeReviews (cards with Accept / Reject) and files.onDidApplyWrite (changed files).
  const files = new FsService(log);
  context.subscriptions.push(files);
  // terminal/*: each command in an integrated terminal (host/terminal). The chat card renders
  // terminals.getTail / onDidChangeOutput / reveal for `{type: "terminal", terminalId}` content.
  const terminals = new TerminalService(log);
  terminalService = terminals;
  context.subscriptions.push(terminals);
  const services: ConnectionServicesFactory = agent => {
    const fs = files.forAgent(agent);
    const terminal = terminals.connect(agent);
    return {
      ...fs, terminal,
      releaseSession: sessionId => { fs.releaseSession(sessionId); return terminal.releaseSession(sessionId); },
      dispose() { fs.dispose(); terminal.dispose(); },
    };
  };

  const mcp = McpServers.forContext(context, log);
  setMcpServers(mcp);
  const diffs = new ToolDiffs(files.edits);
  // API keys the user signs in with: SecretStorage only, passed to the agent as env at start.
  const signIn = new SignIn(context.secrets, log);
  const chat = new ChatController(log, () => channel.show(true), services, new SavedChats(context.workspaceState, vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'transcripts').fsPath, log, !!context.storageUri), diffs, signIn, new ModeChoices(context.globalState), context.globalState);
  controller = chat;
  // Review of everything the agent changed, per turn, whichever way it wrote (host/review).
  const tracker = new ChangeTracker(context.workspaceState, log, files.edits.history, startup.opened);
  files.undoWrites = (w, revert) => tracker.undoWrite(w, revert);
  context.subscriptions.push(tracker, new ReviewUi(tracker, startup.opened),
    chat.onTurn(({ tab, phase }) => (phase === 'start' ? tracker.beginTurn(tab.id, tab.agentName) : void tracker.endTurn(tab.id))),
    chat.onUpdate(guard('review', ({ tab, update, by }) => {
      if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') tracker.onToolUpdate(tab.id, update, by);
    })),
    files.onDidApplyWrite(w => { const tab = chat.tabOfSession(w.agent, w.sessionId); tracker.recordWrite(tab?.id, w.path, w.before, w.after, w.form, w.beforeBytes, tab?.childTitle(w.sessionId), w.id); }),
    files.onDidRead(r => tracker.rememberRead(r.path, r.text, r.form)));

  // Checkpoints: the files before each turn, in a git directory of our own in the storage (host/checkpoints).
  const checkpoints = new Checkpoints(context.storageUri?.fsPath, log);
  chat.beforeTurn = (tab, itemId) => checkpoints.beforeTurn(tab.id, itemId, tab.meta.title || tab.agentName || tab.id);
  checkpoints.onDidWrite = paths => tracker.clientWrote(paths);
  context.subscriptions.push(checkpoints,
    chat.onStatus(s => { if (s.status === 'starting' || s.status === 'ready') checkpoints.warm(); }),
    chat.onTurn(({ tab, phase }) => { if (phase === 'end') checkpoints.afterTurn(tab.id); }),
    chat.onTabs(() => checkpoints.tabsAre(chat.sessions.map(t => t.id))));

  // Commands the agent runs itself: their output, reported on tool calls, kept bounded per call.
  const agentTerminals = new AgentTerminals(log);
  context.subscriptions.push(agentTerminals,
    chat.onUpdate(guard('agent terminals', ({ tab, update }) => agentTerminals.apply(tab, update))),
    chat.onTurn(({ tab, phase }) => { if (phase === 'end') agentTerminals.endTab(tab.id, lastTurnEnd(tab.items)); }));

  const view = new ChatViewProvider(context.extensionUri, chat, diffs, combineTerminalViews(terminals, agentTerminals), tracker, files, log, context.workspaceState, startup);
  context.subscriptions.push(diffs, chat, view);
  // The Agents view and the count of conversations waiting for the user (views/agentsView, host/waitingAlert).
  const agents = new AgentsView(chat, files, id => view.isShowing(id), view.onDidChangeVisibility, id => view.showConversation(id), () => channel.show(true), startup.opened);
  context.subscriptions.push(agents);

  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(registerCommand(id, run));
  command('switchboard.openChat', () => view.reveal());
  command('switchboard.openChatInEditor', () => view.openInEditor());
  command('switchboard.selectAgent', async () => {
    const spec = await chat.pickAgent(false);
    // Shown where the current conversation is (the surface used last), which the choice is for.
    if (spec) { await view.showConversation(chat.activeTab); await chat.start(spec); }
  });
  command('switchboard.startAgent', async () => { await view.showConversation(chat.activeTab); await chat.start(); });
  command('switchboard.restartAgent', () => chat.restart());
  command('switchboard.stopAgent', () => chat.stopAgent());
  command('switchboard.signOut', () => chat.signOut());
  command('switchboard.cancelTurn', () => chat.cancelTurn());
  command('switchboard.newConversation', () => chat.newConversation());
  command('switchboard.browseSessions', () => chat.browseSessions());
  // Run in Parallel: each run in its own git worktree in the extension's storage (session/parallel).
  const parallel = new ParallelRuns(log, context.globalStorageUri.fsPath, tracker, name => signIn.env(name));
  const parallelPanels = new ParallelPanels(parallel);
  // The status bar counts the parallel runs waiting for the user with the conversations.
  const setOf = (id: string) => id.slice(PARALLEL_WAITER.length).split('/')[0];
  const waiting = new WaitingAlert(joinWaits(agents, {
    waiters: () => parallel.waiters(), onChange: parallel.onDidChange,
    shown: id => parallelPanels.isShown(setOf(id)), open: id => parallelPanels.show(setOf(id)).reveal(),
    owns: id => id.startsWith(PARALLEL_WAITER),
  }));
  context.subscriptions.push(waiting);
  context.subscriptions.push(parallel, parallelPanels,
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, { provideTextDocumentContent: uri => parallel.baseText(uri) }));
  command('switchboard.runInParallel', async () => {
    const folder = vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file')?.uri.fsPath;
    if (!folder) { void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: Run in Parallel works in a git repository.')); return; }
    const asked = await askRunsNow()(name => chat.sessions.find(t => t.agentName === name && t.sessionId)?.meta, chat.draft?.text);
    if (asked) parallelPanels.show(parallel.start(asked.prompt, asked.requests, folder));
  });
  command('switchboard.showParallelRuns', () => {
    if (!parallelPanels.showLatest()) void vscode.window.showInformationMessage(vscode.l10n.t('No parallel runs in this window yet: start them with Switchboard: Run in Parallel….'));
  });
  command('switchboard.forkConversation', async () => {
    const forked = await chat.forkConversation();
    if (!forked) void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to fork yet: this conversation has no prompt.'));
    else if (forked.summary) await view.insertIntoComposer(forked.summary, []);
  });
  command('switchboard.addSelectionToChat', () => addSelection(view));
  command('switchboard.showLog', () => channel.show());
  command('switchboard.forgetMcpInputs', () => mcp.forgetInputs());
  command('switchboard.openSettings', () => openSettings(Settings.agents));
  // The ACP registry, loaded on its first command (its own bundle, dist/registry.js); each command
  // takes an optional agent id (skips the pick).
  let registry: AgentRegistry | undefined;
  const loadRegistry = (): AgentRegistry => (registry ??= new (require('./host/registry/agentRegistry') as typeof import('./host/registry/agentRegistry')).AgentRegistry(
    context.globalStorageUri.fsPath, context.asAbsolutePath('media/registry-snapshot.json'), context.globalState, log, {
      list: () => chat.runningAgents.map(a => ({ name: a.name, command: a.command })),
      stop: a => chat.stopAgentProcess(a.name),
    }));
  // The agent picker also looks for the registry's agents on PATH (from its offline copy).
  setRegistryAgentSource(loadRegistry);
  const agentId = (a: unknown) => (typeof a === 'string' ? a : undefined);
  command('switchboard.addAgent', id => loadRegistry().add(agentId(id)));
  command('switchboard.updateAgent', id => loadRegistry().update(agentId(id)));
  command('switchboard.removeAgent', id => loadRegistry().remove(agentId(id)));
  command('switchboard.restoreCheckpoint', arg => {
    const { tab: tabId, itemId } = (arg ?? {}) as { tab?: unknown; itemId?: unknown };
    const tab = chat.sessions.find(t => t.id === tabId);
    return tab && typeof itemId === 'string' ? checkpoints.restore(tab.id, itemId, tab.busy, key => key) : false;
  });
  command('switchboard.undoRestore', () => checkpoints.undoRestore());
  command('switchboard.checkpointStorage', () => checkpoints.showStorage());
  command('switchboard.getStarted', () => openWalkthrough(context.extension.id));
  // The protocol inspector, filtered to the shown conversation's session; follow the agent.
  const inspector = new InspectorPanel(context.extensionUri, protocolTraffic, log);
  const follow = new FollowAgent(chat, log);
  context.subscriptions.push(inspector, follow);
  command('switchboard.openInspector', () => {
    const { sessionId, runtime } = chat.active;
    inspector.open(sessionId ? { ...(runtime ? { conn: runtime.connection.trafficConn } : {}), session: sessionId } : undefined);
  });
  command('switchboard.followAgent', () => follow.start());
  context.subscriptions.push(...registerTitleCommands(view));
  command('switchboard.stopFollowingAgent', () => follow.stop());

  return { chat, view, agents, waiting, files, terminals, review: tracker, checkpoints, mcp, agentTerminals, signIn, inspector, follow, parallel, parallelPanels, loadRegistry };
}

const lastTurnEnd = (items: readonly { kind: string; stopReason?: string }[]): string | undefined =>
  [...items].reverse().find(i => i.kind === 'turnEnd')?.stopReason;

/** "Add selection to chat": the selected text as a fenced block, and the file as a mention. */
async function addSelection(view: ChatViewProvider): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const doc = editor.document;
  const rel = vscode.workspace.asRelativePath(doc.uri, false);
  const sel = editor.selection;
  const text = sel.isEmpty ? '' : `${rel}:${sel.start.line + 1}-${sel.end.line + 1}\n\`\`\`${doc.languageId}\n${doc.getText(sel)}\n\`\`\`\n`;
  await view.insertIntoComposer(text, doc.uri.scheme === 'file' ? [rel] : []);
}

/** Window close / reload / uninstall: the agent process must not outlive us. */
export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
  // The commands agents ran: SIGTERM, then SIGKILL after the grace period, before the host goes.
  await terminalService?.releaseAll();
}
