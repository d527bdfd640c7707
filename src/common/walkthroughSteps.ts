// The steps of the first-run walkthrough (package.json `contributes.walkthroughs`) that complete by
// themselves, and the context key each one waits for (`onContext:<key>` in its completionEvents).

export const WALKTHROUGH_ID = 'switchboard.gettingStarted';

export const WALKTHROUGH_STEPS = ['agentChosen', 'sessionStarted', 'promptSent', 'changeReviewed'] as const;

export type WalkthroughStep = typeof WALKTHROUGH_STEPS[number];

export function walkthroughContextKey(step: WalkthroughStep): string {
  return `switchboard.walkthrough.${step}`;
}
