// The agent as an operating-system process: spawn with the user's environment, collect stderr,
// and stop it for sure (close stdin, SIGTERM, SIGKILL after a grace period; on POSIX the whole
// process group, so `npx` wrappers and their children go too).
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AgentSpec } from '../common/agentConfig';
import { LineTail } from '../common/lineTail';
import type { Logger } from '../common/logger';
import { planSpawn } from '../common/spawnPlan';
import { terminalEnv } from '../common/terminal/spawnPlan';

export interface AgentExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when we asked it to stop. */
  readonly requested: boolean;
}

export class AgentSpawnError extends Error {
  constructor(readonly command: string, readonly notFound: boolean, cause: Error) {
    super(notFound ? `Command not found: ${command}` : `Could not start ${command}: ${cause.message}`);
  }
}

export class AgentProcess {
  readonly stderrTail = new LineTail(20);
  readonly exited: Promise<AgentExit>;
  private stopRequested = false;
  private exitInfo: AgentExit | undefined;

  private constructor(readonly spec: AgentSpec, readonly child: ChildProcessWithoutNullStreams, log: Logger) {
    this.exited = new Promise(resolve => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, requested: this.stopRequested };
        log.info(`Agent "${spec.name}" (pid ${child.pid}) exited with ${signal ?? `code ${code}`}`);
        resolve(this.exitInfo);
      });
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.stderrTail.push(text);
      for (const line of text.split(/\r?\n/)) if (line.trim()) log.info(`[${spec.name} stderr] ${line}`);
    });
    // EPIPE when the agent dies while we write is reported through `exit`; don't crash the host.
    child.stdin.on('error', err => log.warn(`Agent stdin: ${err.message}`));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** Spawns and resolves once the OS has started the process, or rejects with an AgentSpawnError. */
  static start(spec: AgentSpec, cwd: string, log: Logger): Promise<AgentProcess> {
    const plan = planSpawn(spec.command, spec.args, {
      platform: process.platform,
      env: process.env,
      isFile: p => { try { return fs.statSync(p).isFile(); } catch { return false; } },
    });
    log.info(`Starting agent "${spec.name}": ${[spec.command, ...spec.args].join(' ')} (cwd ${cwd})`);
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(plan.file, plan.args, {
          cwd,
          // The user's environment without VS Code's own process variables, plus the configured env.
          env: terminalEnv(process.env, Object.entries(spec.env).map(([name, value]) => ({ name, value })), process.platform),
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsVerbatimArguments: plan.verbatim,
          windowsHide: true,
          // Own process group on POSIX, so stop() reaches the agent's children as well.
          detached: process.platform !== 'win32',
        });
      } catch (err) {
        reject(new AgentSpawnError(spec.command, false, err as Error));
        return;
      }
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(new AgentSpawnError(spec.command, err.code === 'ENOENT', err));
      });
      child.once('spawn', () => resolve(new AgentProcess(spec, child, log)));
    });
  }

  /**
   * Stops the agent: stdin closed first (the polite ACP way), then SIGTERM, then SIGKILL.
   * Resolves when the process is gone.
   */
  async stop(graceMs = 2000): Promise<AgentExit> {
    this.stopRequested = true;
    if (!this.exitInfo) {
      this.child.stdin.end();
      if (!(await this.exitsWithin(Math.min(graceMs, 500)))) {
        this.signal('SIGTERM');
        if (!(await this.exitsWithin(graceMs))) this.signal('SIGKILL');
      }
    }
    const exit = await this.exited;
    // Children the agent left in its group (an npx wrapper's real agent, say) must not outlive it.
    this.signal('SIGTERM');
    return exit;
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise(resolve => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => { clearTimeout(timer); resolve(true); });
    });
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      // Windows has no process groups; taskkill /T ends the tree (the agent behind a .cmd shim too).
      if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', ...(sig === 'SIGKILL' ? ['/F'] : [])], { windowsHide: true, timeout: 5000 });
      else process.kill(-pid, sig);
    } catch {
      try { this.child.kill(sig); } catch { /* already gone */ }
    }
  }
}
