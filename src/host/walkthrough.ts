// The first-run walkthrough: pick or install an agent → sign in if it needs it → first prompt →
// review a change. Each step completes by itself: the places where the user did it call
// completeWalkthroughStep, which sets the context key the step's `completionEvents` wait for
// (common/walkthroughSteps.ts). VS Code remembers a completed step, so a key only ever goes from
// unset to true, once per window.
import * as vscode from 'vscode';
import { WALKTHROUGH_ID, walkthroughContextKey, WalkthroughStep } from '../common/walkthroughSteps';

const done = new Set<WalkthroughStep>();

export function completeWalkthroughStep(step: WalkthroughStep): void {
  if (done.has(step)) return;
  done.add(step);
  void vscode.commands.executeCommand('setContext', walkthroughContextKey(step), true);
}

/** "Switchboard: Get Started": the walkthrough, in the editor area. */
export function openWalkthrough(extensionId: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH_ID}`, false);
}
