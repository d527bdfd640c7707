// The chat's page is shown (VS Code makes its frame visible) at its load event, and the load event
// waits for every font the page has asked for by then. The codicon font is asked for by the first
// layout: a layout read while the page builds itself (a height, a scroll position, a focus) made the
// page wait for the font, fetched through the webview's service worker, 40-100 ms after its first
// state was shown (bench/activation: decision 0030). So what reads the layout as the page starts
// waits for afterLoad: the first frame after the load event, where the browser lays the page out
// anyway. The icons then appear when their font has come (codicon.css: font-display block).

/** How long the page waits for its load event at most (VS Code shows the frame after 200 ms without one). */
const LOAD_WAIT_MS = 200;

/**
 * Runs `fn` at the first animation frame after the page's load event (at once when it has passed),
 * or after LOAD_WAIT_MS when the load event is late (an image of the first state still loading).
 */
export function afterLoad(fn: () => void): void {
  let queued = false;
  const run = (): void => { if (!queued) { queued = true; requestAnimationFrame(fn); } };
  if (document.readyState === 'complete') { run(); return; }
  window.addEventListener('load', run, { once: true });
  setTimeout(run, LOAD_WAIT_MS);
}
