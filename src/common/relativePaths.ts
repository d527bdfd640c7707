// Agents name files by absolute path in their titles ("Edit `/home/me/project/src/a.ts`"). Shown
// workspace-relative they fit the card and say what matters. Pure: the webview applies it with the
// workspace folders the host sends.

/**
 * Rewrites every absolute path inside one of `roots` as a path relative to it (prefixed with the
 * folder's name when there are several roots, like VS Code's own labels). Other text is untouched:
 * a path is only rewritten when the root is followed by a separator and not preceded by a path
 * character, so `/w/proj2/a` is not taken for a file of `/w/proj`.
 */
export function relativizePaths(text: string, roots: readonly string[]): string {
  const usable = roots.map(r => r.replace(/[\\/]+$/, '')).filter(r => r.length > 1).sort((a, b) => b.length - a.length);
  if (!usable.length || !text) return text;
  let out = text;
  for (const root of usable) {
    const windows = /^[a-zA-Z]:/.test(root) || root.startsWith('\\\\');
    // Either separator after the root on Windows; case-insensitive there too (C:\ vs c:\).
    const body = windows ? escape(root).replace(/\\\\|\//g, '[\\\\/]') : escape(root);
    const re = new RegExp(`(?<![\\w.~/\\\\-])${body}[\\\\/](?=[^\\s\\\\/])`, windows ? 'gi' : 'g');
    const prefix = usable.length > 1 ? `${root.split(/[\\/]/).pop()}/` : '';
    out = out.replace(re, prefix);
  }
  return out;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
