// Which agent processes run: one AgentRuntime per agent, shared by the conversations bound to it,
// agents side by side (docs/decisions/0024, 0028). The pool starts an agent once (a second caller
// waits for the same start, which can be cancelled), stops it (asked, idle, signed out), notices
// when it ends unasked, and keeps each agent's status. It knows no tabs: what a stop or a crash
// means for the conversations is decided by the pure lifecycle model on the state its
// `PoolConversations` (the ChatController) gives, and carried out there.
import * as vscode from 'vscode';
import { AgentSpawnError } from '../acp/agentProcess';
import type { ConnectionServicesFactory } from '../acp/clientServices';
import type { AgentSpec } from '../common/agentConfig';
import { isRemembered, launchKey, rememberLaunch, runnerPackage, startFailureWords, startStatus } from '../common/agentStart';
import { describeAgentEnd } from '../common/connectionLoss';
import { conversationsTold, idleStopAfter, startOfConversation } from '../common/conversation/binding';
import { transition, type AgentState, type LifecycleEvent, type LifecycleState, type Transition } from '../common/conversation/lifecycle';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { ChatStatus } from '../common/protocol';
import type { ItemAction } from '../common/transcript';
import { readAgentIdleMs, readInitializeTimeoutMs } from '../host/config';
import { launchSpec } from '../host/installedAgents';
import { describeStartFailure } from '../host/startFailure';
import { completeWalkthroughStep } from '../host/walkthrough';
import { AgentQuestions, AgentRuntime, startStderr } from './agentRuntime';
import { describe } from './chatSession';
import type { SignIn } from './signIn';

/** Where the pool tells a conversation what happened to its agent (a ChatSession). */
export interface AgentNotices {
  readonly agentName: string;
  addNotice(text: string): void;
  addNoticeAfterTurn(text: string): void;
  addError(message: string, details: string | undefined, actions: readonly ItemAction[]): void;
}

/** What the pool needs of the conversations (the ChatController keeps them). */
export interface PoolConversations {
  /** The lifecycle model's state now: the conversations, and the agents as `AgentPool.agentStates` says. */
  lifecycle(): LifecycleState;
  /** A turn or an open request in one of `agent`'s conversations (its idle time does not run). */
  holding(agent: string): boolean;
  /** The conversations bound to `runtime`, and those of its agent. */
  of(runtime: AgentRuntime): { bound: readonly AgentNotices[]; ofAgent: readonly AgentNotices[] };
  /** The shown conversation. */
  shown(): AgentNotices;
  /** `runtime` went away (`t`: the model's transition): its conversations are detached, each turn that ended says so, its own questions are cancelled. */
  detach(t: Transition, runtime: AgentRuntime): void;
  /** The agent's own questions (tied to no conversation). */
  ownQuestions(agentName: string): AgentQuestions;
}

export class AgentPool extends Disposable {
  /** The running agents, by name: one process each, shared by the conversations bound to it. */
  private readonly runtimes = new Map<string, AgentRuntime>();
  /** Agents starting now, by name (a second prompt for one waits for the same start). */
  private readonly starting = new Map<string, Promise<AgentRuntime | undefined>>();
  /** The agent started last (what "the running agent" means where no conversation says which). */
  private lastRuntime: AgentRuntime | undefined;
  /** Agents whose process ended unasked, with why (the Agents view says so until they start again). */
  private readonly crashes = new Map<string, string>();
  /** The status of each agent (starting, ready, stopped, error). */
  private readonly statuses = new Map<string, ChatStatus>();
  /** The status set last, whichever agent's. */
  lastStatus: ChatStatus = { agentName: undefined, status: 'stopped', detail: '' };
  /** The agent started last, for Restart after it exited. */
  private lastSpecValue: AgentSpec | undefined;
  /** Idle timers of the running agents, by name (switchboard.agentIdleMinutes). */
  private readonly idleTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Cancels an agent's start under way (Cancel in the chat, Esc), by agent name. */
  private readonly startAborts = new Map<string, AbortController>();
  private readonly statusEmitter = this.register(new vscode.EventEmitter<void>());
  /** An agent's status was set. */
  readonly onStatus = this.statusEmitter.event;

  constructor(
    private readonly log: Logger,
    private readonly services: ConnectionServicesFactory,
    private readonly signIn: SignIn,
    private readonly conversations: PoolConversations,
    /** Machine-wide memory (globalState): the package-runner launches that started once (their next start downloads nothing). */
    private readonly machine?: vscode.Memento,
  ) {
    super();
  }

  /** Agent `name`'s runtime, running or not (until it is stopped or noticed gone). */
  get(name: string): AgentRuntime | undefined { return this.runtimes.get(name); }
  /** Agent `name`'s runtime while it runs. */
  running(name: string): AgentRuntime | undefined {
    const runtime = this.runtimes.get(name);
    return runtime?.isRunning ? runtime : undefined;
  }
  /** Agent `name`'s start under way. */
  pending(name: string): Promise<AgentRuntime | undefined> | undefined { return this.starting.get(name); }
  /** The agent started last, while the pool keeps it. */
  get last(): AgentRuntime | undefined { return this.lastRuntime; }
  /** The agent whose start was begun last (what Restart starts after it exited). */
  get lastSpec(): AgentSpec | undefined { return this.lastSpecValue; }
  /** Every agent running now. */
  get allRunning(): AgentRuntime[] { return [...this.runtimes.values()].filter(r => r.isRunning); }
  /** Agent `name`'s status, once one was set. */
  statusOf(name: string): ChatStatus | undefined { return this.statuses.get(name); }

  /** The agents as the lifecycle model sees them: crashed, starting, ready. */
  agentStates(): Record<string, AgentState> {
    const agents: Record<string, AgentState> = {};
    for (const [name, reason] of this.crashes) agents[name] = { phase: 'crashed', reason };
    for (const name of this.starting.keys()) agents[name] = { phase: 'starting' };
    for (const [name, runtime] of this.runtimes) if (runtime.isRunning) agents[name] = { phase: 'ready' };
    return agents;
  }

  /** The start a conversation of `agentName` waits for (common/conversation/binding). */
  startUnderWay(agentName: string): AbortController | undefined {
    return startOfConversation(agentName, this.startAborts.get(agentName), [...this.startAborts.values()].pop());
  }

  /** Starts agent `spec` unless a start of it is under way (then that one). `tab`: where a failed start is told. */
  startOnce(spec: AgentSpec, tab: AgentNotices): Promise<AgentRuntime | undefined> {
    let start = this.starting.get(spec.name);
    if (!start) {
      start = this.startRuntime(spec, tab).finally(() => this.starting.delete(spec.name));
      this.starting.set(spec.name, start);
    }
    return start;
  }

  /** Agents start only in a trusted workspace with a folder; else the conversation says why. */
  mayStart(tab: AgentNotices): boolean {
    if (!vscode.workspace.isTrusted) {
      this.fail(tab, vscode.l10n.t('Switchboard does not start agents in an untrusted workspace. Trust this folder to use an agent.'), undefined, []);
      return false;
    }
    if (!workspaceCwd()) {
      this.fail(tab, vscode.l10n.t('Open a folder first: the agent works in a workspace folder.'), undefined, []);
      return false;
    }
    return true;
  }

  /** Ends every agent process for sure; resolves when they are gone. Conversations stay, detached. */
  async stopAll(): Promise<void> {
    // Stop during start: let the start finish, then stop what it started.
    await Promise.all([...this.starting.values()].map(p => p.catch(() => undefined)));
    await Promise.all([...this.runtimes.keys()].map(name => this.stop(name)));
  }

  /** Ends agent `name` once its start under way (if any) is over. */
  async stopWhenStarted(name: string): Promise<void> {
    await this.starting.get(name)?.catch(() => undefined);
    await this.stop(name);
  }

  /** Ends agent `name`; only its own conversations are detached, each turn it ends says so there. */
  async stop(name: string): Promise<void> {
    const runtime = this.runtimes.get(name);
    clearTimeout(this.idleTimers.get(name));
    this.idleTimers.delete(name);
    if (!runtime) return;
    const t = this.decide({ type: 'stopConfirmed', agent: name });
    this.runtimes.delete(name);
    if (this.lastRuntime === runtime) this.lastRuntime = undefined;
    this.conversations.detach(t, runtime);
    await runtime.stop();
    this.setStatus('stopped', '', name);
  }

  /**
   * (Re)arms agent `name`'s idle timer: with no turn and no open question in any of its
   * conversations for the idle time, its process stops; the next prompt starts it again and resumes
   * or loads the conversations. An agent that cannot reopen its sessions is never stopped this way.
   */
  watchIdle(name: string): void {
    clearTimeout(this.idleTimers.get(name));
    this.idleTimers.delete(name);
    const runtime = this.runtimes.get(name);
    const ms = idleStopAfter(readAgentIdleMs(), runtime?.isRunning ? runtime.capabilities : undefined);
    if (!runtime || ms === undefined) return;
    if (this.conversations.holding(name)) return;
    this.idleTimers.set(name, setTimeout(() => void this.stopIdle(name, runtime), ms));
  }

  private async stopIdle(name: string, runtime: AgentRuntime): Promise<void> {
    this.idleTimers.delete(name);
    if (this.runtimes.get(name) !== runtime) return;
    if (!this.decide({ type: 'idleTimeout', agent: name }).effects.some(e => e.type === 'kill')) { this.watchIdle(name); return; }
    this.log.info(`${name} had nothing to do for the idle time (switchboard.agentIdleMinutes): its process is stopped; the next prompt starts it again`);
    await this.stop(name);
    this.setStatus('stopped', vscode.l10n.t('{0} was stopped after it had nothing to do for a while; your next prompt starts it again.', name), name);
  }

  /** `status`: what the status line says instead of the whole message (shown once, in the conversation). */
  fail(tab: AgentNotices, message: string, details: string | undefined, actions: readonly ItemAction[], status = message, agentName = tab.agentName || undefined): void {
    this.log.error(details ? `${message}\n${details}` : message);
    tab.addError(message, details, actions);
    this.setStatus('error', status, agentName);
  }

  /** The status of agent `agentName` (and the status set last). */
  setStatus(status: ChatStatus['status'], detail: string, agentName: string | undefined): void {
    const value = { agentName, status, detail };
    if (agentName) this.statuses.set(agentName, value);
    this.lastStatus = value;
    this.statusEmitter.fire();
  }

  /** The model's view of every conversation and agent now, and what `event` would change (pure; nothing is run). */
  private decide(event: LifecycleEvent): Transition {
    return transition(this.conversations.lifecycle(), event);
  }

  private async startRuntime(chosen: AgentSpec, tab: AgentNotices): Promise<AgentRuntime | undefined> {
    const cwd = workspaceCwd();
    if (!cwd) return undefined;
    // An installed preset runs its own binary rather than through npx / uvx (host/installedAgents).
    const spec = await launchSpec(chosen);
    this.lastSpecValue = spec;
    // The status says what the start waits for: the first download of a runner's package, then the seconds.
    const pkg = runnerPackage(spec.command, spec.args);
    const key = launchKey(spec.command, spec.args);
    const downloading = pkg && !isRemembered(this.machine?.get(STARTED_LAUNCHES), key) ? pkg : undefined;
    const since = Date.now();
    const progress = () => this.setStatus('starting', startStatus({ agentName: spec.name, downloading, elapsedMs: Date.now() - since }), spec.name);
    progress();
    const ticker = setInterval(progress, 1000);
    const abort = new AbortController();
    this.startAborts.set(spec.name, abort);
    let runtime: AgentRuntime;
    try {
      runtime = await AgentRuntime.start(spec, cwd, this.services, readInitializeTimeoutMs(), this.log, await this.signIn.env(spec.name), this.conversations.ownQuestions(spec.name), abort.signal);
    } catch (err) {
      if (abort.signal.aborted) {
        this.log.info(`The start of ${spec.name} was cancelled`);
        tab.addNotice(vscode.l10n.t('The start of {0} was cancelled.', spec.name));
        this.setStatus('stopped', '', spec.name);
      } else {
        this.reportStartFailure(spec, err, tab);
      }
      return undefined;
    } finally {
      clearInterval(ticker);
      if (this.startAborts.get(spec.name) === abort) this.startAborts.delete(spec.name);
    }
    if (pkg) void this.machine?.update(STARTED_LAUNCHES, rememberLaunch(this.machine.get(STARTED_LAUNCHES), key));
    this.runtimes.set(spec.name, runtime);
    this.crashes.delete(spec.name);
    this.lastRuntime = runtime;
    runtime.onStrayOutput = this.strayOutputReporter(runtime);
    void runtime.exited.then(exit => {
      if (exit.requested || this.runtimes.get(spec.name) !== runtime) return;
      const ended = describeAgentEnd(spec.name, exit);
      // Only this agent's conversations: its turns end here, the other agents' run on.
      const t = this.decide({ type: 'crashed', agent: spec.name, reason: ended });
      this.runtimes.delete(spec.name);
      this.crashes.set(spec.name, ended);
      if (this.lastRuntime === runtime) this.lastRuntime = undefined;
      const stderr = runtime.process.stderrTail.text() || undefined;
      const { bound, ofAgent } = this.conversations.of(runtime);
      this.conversations.detach(t, runtime);
      for (const t of conversationsTold(bound, ofAgent, tab)) t.addError(ended, stderr, ['restart', 'showLog']);
      this.log.error(`${ended}${stderr ? '\n' + stderr : ''}`);
      this.setStatus('error', ended, spec.name);
    });
    this.setStatus('ready', '', spec.name);
    this.watchIdle(spec.name);
    completeWalkthroughStep('agentChosen');
    void this.signIn.noteRuntime(runtime);
    return runtime;
  }

  /**
   * Lines on the agent's stdout that are not ACP: logged (the first 20), and the first one named in
   * the conversation, after the running turn so it never cuts the answer in two.
   */
  private strayOutputReporter(runtime: AgentRuntime): (line: string) => void {
    let count = 0;
    const name = runtime.spec.name;
    return line => {
      count++;
      if (count <= 20) this.log.warn(vscode.l10n.t('{0} wrote a line to its output that is not an ACP message; it was ignored: {1}', name, line));
      if (count === 20) this.log.warn(vscode.l10n.t('Further lines of {0} that are not ACP messages are not logged.', name));
      if (count > 1) return;
      const { bound, ofAgent } = this.conversations.of(runtime);
      for (const tab of conversationsTold(bound, ofAgent, this.conversations.shown())) {
        tab.addNoticeAfterTurn(vscode.l10n.t('{0} wrote text to its output that is not an ACP (JSON-RPC) message; it was ignored. First line: “{1}”. The log (Switchboard: Show Log) lists more. An agent that prints to stdout may be misconfigured.', name, line));
      }
    };
  }

  /** A failed start, once, in the conversation and in words; what the agent printed (its stack trace too) goes to the log only. */
  private reportStartFailure(spec: AgentSpec, err: unknown, tab: AgentNotices): void {
    const stderr = startStderr(err);
    if (stderr) this.log.error(`${spec.name} printed on stderr before it failed to start:\n${stderr}`);
    const short = vscode.l10n.t({ message: '{0} could not start', args: [spec.name], comment: 'The status line after a failed start; the conversation says why' });
    if (err instanceof AgentSpawnError) {
      // A missing runtime (npx → Node.js, uvx → uv) is named with where to get it (host/startFailure).
      this.fail(tab, describeStartFailure(spec, err).message, undefined, ['openSettings', 'showLog'], short, spec.name);
      return;
    }
    const words = stderr ? startFailureWords(stderr) : undefined;
    this.fail(tab, words
      ? vscode.l10n.t({ message: 'Could not start {0}: {1}. It said: “{2}”', args: [spec.name, describe(err).replace(/[.\s]+$/, ''), words], comment: '{1} is why, {2} the error line the agent printed' })
      : vscode.l10n.t('Could not start {0}: {1}', spec.name, describe(err)), undefined, ['restart', 'showLog'], short, spec.name);
  }

  /** Stops every agent (without waiting), cancels the starts under way and the idle timers. */
  override dispose(): void {
    void this.stopAll();
    for (const abort of this.startAborts.values()) abort.abort();
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    super.dispose();
  }
}

/** globalState key: the package-runner launches that started once. */
const STARTED_LAUNCHES = 'switchboard.startedLaunches.v1';

/** The workspace folder agents work in (the first one on disk). */
export function workspaceCwd(): string | undefined {
  return vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file')?.uri.fsPath;
}
