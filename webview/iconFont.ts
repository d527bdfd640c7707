// The codicon font, written into the chat's page as bytes (src/views/pageHtml.ts, decision 0033) and
// added here, before the page is first laid out. VS Code shows a webview's page at its load event,
// which waits for every font the page asked for by then: fetched, the font held the page hidden for
// a round trip through the webview's service worker (~60 ms after its first state, in a trace).
// Bytes are no fetch, so the CSP's `font-src` is not involved; the page's own script adds them.

/** Adds the font the page carries (`#icon-font`: its base64), if it carries one. */
export function addIconFont(): void {
  const text = document.getElementById('icon-font')?.textContent;
  if (!text) return;
  let base64: unknown;
  try {
    base64 = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof base64 !== 'string') return;
  const bytes = Uint8Array.from(atob(base64), c => c.charCodeAt(0));
  // As codicon.css's @font-face: `block`, so a glyph never shows as a letter of another font.
  document.fonts.add(new FontFace('codicon', bytes, { display: 'block' }));
}

addIconFont();
