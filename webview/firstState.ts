// The state the host wrote into the chat's page as it made it (views/chatViewProvider.ts firstState):
// the page shows it as it loads, without waiting for the answer to `view/ready`. Once: a page made
// again from the same HTML (the view hidden, then shown) has it in its saved state as seen, and waits
// for the host's answer instead (the conversation has moved on since).
import type { FirstState } from '../src/common/protocol';

/** The page's first state, unless `saved` (the page's saved state) says it was shown already. */
export function readFirstState(saved: unknown): FirstState | undefined {
  const text = document.getElementById('first-state')?.textContent;
  if (!text) return undefined;
  let first: Partial<FirstState> | undefined;
  try {
    first = JSON.parse(text) as Partial<FirstState>;
  } catch {
    return undefined;
  }
  const seen = (saved as { first?: unknown } | undefined)?.first;
  return typeof first?.id === 'string' && first.id !== seen && typeof first.key === 'string' && Array.isArray(first.messages) ? first as FirstState : undefined;
}
