// Commands registered in two halves (docs/decisions/0041). VS Code runs a command that activated the
// extension as soon as activate() returns, so every contributed command is registered there, at
// once (`registerEarly`); the services behind them are built a moment later (extension.ts). A
// module registering a command with `registerCommand` then gives the early one its handler; any
// other id is registered with VS Code as usual.
import * as vscode from 'vscode';

// As vscode.commands.registerCommand takes it: each handler declares its own arguments.
type Handler = (...args: any[]) => unknown;

/** Each id registered early, and its handler once a module registered it. */
const early = new Map<string, Handler | undefined>();

/**
 * Registers each of `ids` with VS Code now; a call runs `build()` first (the services, once), then
 * the handler `registerCommand` gave the id. One with no handler after the build fails as VS Code
 * fails an unknown command.
 */
export function registerEarly(ids: readonly string[], build: () => void): vscode.Disposable[] {
  return ids.filter(id => !early.has(id)).map(id => {
    early.set(id, undefined);
    const registered = vscode.commands.registerCommand(id, (...args: unknown[]) => {
      build();
      const run = early.get(id);
      if (!run) throw new Error(`command '${id}' not found`);
      return run(...args);
    });
    return { dispose: () => { registered.dispose(); early.delete(id); } };
  });
}

/** vscode.commands.registerCommand; for an id registered early, its handler. */
export function registerCommand(id: string, run: Handler): vscode.Disposable {
  if (!early.has(id)) return vscode.commands.registerCommand(id, run);
  if (early.get(id)) throw new Error(`command '${id}' already exists`);
  early.set(id, run);
  return { dispose: () => { if (early.get(id) === run) early.set(id, undefined); } };
}

/** Tests: the ids registered early that no module gave a handler (each must have one once built). */
export function unhandledCommands(): string[] {
  return [...early].filter(([, run]) => !run).map(([id]) => id);
}
