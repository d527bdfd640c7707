// The chat's page is shown (VS Code makes its frame visible) at its load event, and the load event
// waits for every font the page has asked for by then. The codicon font is asked for by the first
// layout: a layout read while the page builds itself (a height, a scroll position, a focus) made the
// page wait for the font, fetched through the webview's service worker, 40-100 ms after its first
// state was shown (bench/activation: decision 0030). So what reads the layout as the page starts
// waits for afterLoad: the first frame after the load event, where the browser lays the page out
// anyway. The icons then appear when their font has come (codicon.css: font-display block).

/** Runs `fn` at the first animation frame after the page's load event (at once when it has passed). */
export function afterLoad(fn: () => void): void {
  if (document.readyState === 'complete') { requestAnimationFrame(fn); return; }
  window.addEventListener('load', () => requestAnimationFrame(fn), { once: true });
}
