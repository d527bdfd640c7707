// A set of parallel runs: one prompt given to several agents (or one agent twice with another model
// or mode), each in its own git worktree. The whole lifecycle as data, `(state, event) → (state,
// effects)`: the host (session/parallel) runs the effects (stop an agent, apply a run, remove the
// worktrees) and the panel renders the state. Nothing here touches git, a process or VS Code.

/** One run's state. 'waiting': its agent asks the user something (a permission). */
export type RunStatus = 'preparing' | 'starting' | 'working' | 'waiting' | 'done' | 'failed' | 'stopped';

/** A file the run changed, against the state it started from. `added`/`removed`: lines (undefined for a binary file). */
export interface RunFile {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  readonly added?: number;
  readonly removed?: number;
}

export interface RunState {
  readonly id: string;
  /** What the panel calls the run: the agent, and its model or mode when one was chosen. */
  readonly label: string;
  readonly agentName: string;
  readonly status: RunStatus;
  readonly startedAt?: number;
  readonly endedAt?: number;
  /** Tokens the agent reported (its context usage), if it reports any. */
  readonly tokens?: number;
  readonly files: readonly RunFile[];
  /** Why it failed, or the agent's stop reason when it ended otherwise than end_turn. */
  readonly detail?: string;
}

/**
 * 'preparing': worktrees are being created · 'running': at least one run goes on · 'finished': all
 * runs ended, one may be applied · 'applying' · 'applied' · 'discarded' · 'failed': nothing could
 * start (no git repository, no commit): `message` says why.
 */
export type RunSetPhase = 'preparing' | 'running' | 'finished' | 'applying' | 'applied' | 'discarded' | 'failed';

export interface RunSetState {
  readonly id: string;
  readonly prompt: string;
  readonly phase: RunSetPhase;
  readonly runs: readonly RunState[];
  /** The run applied (phase 'applying' / 'applied'). */
  readonly applied?: string;
  readonly message?: string;
}

export type RunSetEvent =
  | { readonly type: 'prepareFailed'; readonly message: string }
  | { readonly type: 'runStarting'; readonly run: string }
  | { readonly type: 'runStarted'; readonly run: string; readonly at: number }
  | { readonly type: 'runWaiting'; readonly run: string; readonly waiting: boolean }
  | { readonly type: 'runTokens'; readonly run: string; readonly tokens: number }
  | { readonly type: 'runEnded'; readonly run: string; readonly at: number; readonly stopReason: string; readonly files: readonly RunFile[] }
  | { readonly type: 'runFailed'; readonly run: string; readonly at: number; readonly message: string; readonly files?: readonly RunFile[] }
  | { readonly type: 'stopAsked'; readonly run: string }
  | { readonly type: 'applyAsked'; readonly run: string }
  | { readonly type: 'applied'; readonly message?: string }
  | { readonly type: 'applyFailed'; readonly message: string }
  | { readonly type: 'discardAsked' };

export type RunSetEffect =
  /** Cancel the run's turn and end its agent. */
  | { readonly type: 'stopRun'; readonly run: string }
  /** Bring the run's changes into the workspace (reviewable), then the worktrees go. */
  | { readonly type: 'applyRun'; readonly run: string }
  | { readonly type: 'removeWorktrees' };

export interface RunSetTransition { readonly state: RunSetState; readonly effects: readonly RunSetEffect[] }

/** A new set: each run is being prepared. */
export function newRunSet(id: string, prompt: string, runs: readonly { id: string; label: string; agentName: string }[]): RunSetState {
  return { id, prompt, phase: 'preparing', runs: runs.map(r => ({ ...r, status: 'preparing', files: [] })) };
}

const ENDED: ReadonlySet<RunStatus> = new Set(['done', 'failed', 'stopped']);

/** True once the run ended, however. */
export const runEnded = (run: RunState): boolean => ENDED.has(run.status);

/** True when `run` can be applied now: it ended with changes, and nothing was applied or discarded. */
export function canApply(state: RunSetState, runId: string): boolean {
  const run = state.runs.find(r => r.id === runId);
  return !!run && (state.phase === 'running' || state.phase === 'finished') && (run.status === 'done' || run.status === 'stopped') && run.files.length > 0;
}

/** True while the set holds worktrees (neither applied, discarded nor failed). */
export const isOpen = (state: RunSetState): boolean => state.phase !== 'applied' && state.phase !== 'discarded' && state.phase !== 'failed';

export function runSetTransition(state: RunSetState, event: RunSetEvent): RunSetTransition {
  const same: RunSetTransition = { state, effects: [] };
  const withRun = (id: string, patch: (r: RunState) => RunState | undefined): RunSetState | undefined => {
    const run = state.runs.find(r => r.id === id);
    const next = run && patch(run);
    return next && next !== run ? { ...state, runs: state.runs.map(r => (r.id === id ? next : r)) } : undefined;
  };
  // Once every run ended, the set is finished (it stays so until one is applied or all discarded).
  const settle = (s: RunSetState): RunSetState =>
    (s.phase === 'running' || s.phase === 'preparing') && s.runs.every(runEnded) ? { ...s, phase: 'finished' } : s;
  switch (event.type) {
    case 'prepareFailed':
      if (state.phase !== 'preparing') return same;
      return { state: { ...state, phase: 'failed', message: event.message }, effects: [{ type: 'removeWorktrees' }] };
    case 'runStarting': {
      if (!isOpen(state)) return same;
      const next = withRun(event.run, r => (r.status === 'preparing' ? { ...r, status: 'starting' } : undefined));
      return next ? { state: { ...next, phase: 'running' }, effects: [] } : same;
    }
    case 'runStarted': {
      const next = withRun(event.run, r => (r.status === 'starting' || r.status === 'preparing' ? { ...r, status: 'working', startedAt: event.at } : undefined));
      return next ? { state: { ...next, phase: next.phase === 'preparing' ? 'running' : next.phase }, effects: [] } : same;
    }
    case 'runWaiting': {
      const next = withRun(event.run, r => {
        if (event.waiting && r.status === 'working') return { ...r, status: 'waiting' };
        if (!event.waiting && r.status === 'waiting') return { ...r, status: 'working' };
        return undefined;
      });
      return next ? { state: next, effects: [] } : same;
    }
    case 'runTokens': {
      const next = withRun(event.run, r => (r.tokens === event.tokens ? undefined : { ...r, tokens: event.tokens }));
      return next ? { state: next, effects: [] } : same;
    }
    case 'runEnded':
    case 'runFailed': {
      const next = withRun(event.run, r => {
        if (runEnded(r) && event.type === 'runFailed') return undefined;
        // A run stopped by the user stays 'stopped' (its files still count: it may be applied).
        const status: RunStatus = r.status === 'stopped' ? 'stopped' : event.type === 'runFailed' ? 'failed' : event.stopReason === 'cancelled' ? 'stopped' : 'done';
        const detail = event.type === 'runFailed' ? event.message : event.stopReason === 'end_turn' ? undefined : event.stopReason;
        return { ...r, status, endedAt: r.endedAt ?? event.at, files: event.files ?? r.files, ...(detail ? { detail } : {}) };
      });
      return next ? { state: settle(next), effects: [] } : same;
    }
    case 'stopAsked': {
      const run = state.runs.find(r => r.id === event.run);
      if (!run || runEnded(run) || !isOpen(state)) return same;
      return { state: settle({ ...state, runs: state.runs.map(r => (r === run ? { ...r, status: 'stopped' } : r)) }), effects: [{ type: 'stopRun', run: run.id }] };
    }
    case 'applyAsked': {
      if (!canApply(state, event.run)) return same;
      // The others are not needed any more: those still working end first.
      const stops = state.runs.filter(r => !runEnded(r)).map(r => ({ type: 'stopRun' as const, run: r.id }));
      return {
        state: { ...state, phase: 'applying', applied: event.run, runs: state.runs.map(r => (runEnded(r) ? r : { ...r, status: 'stopped' })) },
        effects: [...stops, { type: 'applyRun', run: event.run }],
      };
    }
    case 'applied':
      if (state.phase !== 'applying') return same;
      return { state: { ...state, phase: 'applied', message: event.message }, effects: [{ type: 'removeWorktrees' }] };
    case 'applyFailed':
      // Nothing was lost: the worktrees stay, another try (or Discard) is possible.
      if (state.phase !== 'applying') return same;
      return { state: { ...state, phase: 'finished', applied: undefined, message: event.message }, effects: [] };
    case 'discardAsked': {
      if (!isOpen(state) || state.phase === 'applying') return same;
      const stops = state.runs.filter(r => !runEnded(r)).map(r => ({ type: 'stopRun' as const, run: r.id }));
      return {
        state: { ...state, phase: 'discarded', runs: state.runs.map(r => (runEnded(r) ? r : { ...r, status: 'stopped' })) },
        effects: [...stops, { type: 'removeWorktrees' }],
      };
    }
  }
}
