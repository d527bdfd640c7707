// What every Switchboard webview page starts with (the chat's, a child agent's tab, the protocol
// inspector): the CSP with a fresh nonce, codicons, the page's own stylesheet and script, and the
// webview's translations.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';

/** A page's head (up to `</head>`), its script element (for the end of its body), and asset URLs. */
export interface PageParts {
  readonly head: string;
  readonly script: string;
  asset(name: string): string;
}

/**
 * The page whose stylesheet and script are `dist/webview/<name>.css` and `<name>.js`. With
 * `inline`, both are written into the page (with the nonce) instead of fetched: a webview fetches
 * each file through its service worker and the workbench, a round trip before the page can run
 * (the chat's first paint). Codicons too (a stylesheet linked before the page's script holds the
 * script until it has loaded), with their font as bytes (decision 0033; else named by its webview URL).
 */
export function pageHead(webview: vscode.Webview, distUri: vscode.Uri, name: string, title: string, options: { inline?: boolean } = {}): PageParts {
  const nonce = randomBytes(16).toString('base64');
  const asset = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(distUri, file)).toString();
  // A stylesheet written into the page (`text`: when asked and possible), else linked.
  const styleOf = (file: string, text: string | undefined) =>
    (text === undefined ? `<link rel="stylesheet" href="${asset(file)}">` : `<style nonce="${nonce}">${text}</style>`);
  const files = options.inline ? inlineFiles(distUri, name) : undefined;
  const css = files?.css;
  const codicons = files?.codicons?.replace(/url\((["']?)\.\/codicon\.ttf/g, (_, q: string) => `url(${q}${asset('codicon.ttf')}`);
  // Written in with codicons, the icon font comes as bytes the page's script adds (webview/iconFont.ts)
  // before the page is first laid out: its load event, at which VS Code shows the page, waits for no font fetch.
  const font = codicons !== undefined ? files?.font : undefined;
  const js = files?.js;
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  // The webview's translations as data (no bundle: English, the webview keeps its own text).
  const head = `<!DOCTYPE html>
<html lang="${attr(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styleOf('codicon.css', codicons !== undefined && font !== undefined ? withoutFontFace(codicons) : codicons)}
${styleOf(`${name}.css`, css)}
<title>${attr(title)}</title>
${dataElement('l10n', { lang: vscode.env.language, bundle: vscode.l10n.bundle })}
${font !== undefined ? dataElement('icon-font', font) : ''}
</head>`;
  const script = js === undefined ? `<script nonce="${nonce}" src="${asset(`${name}.js`)}"></script>` : `<script nonce="${nonce}">${js}</script>`;
  return { head, script, asset };
}

/** What pageHead writes into page `name` with `inline` (each undefined when it cannot be). */
function inlineFiles(distUri: vscode.Uri, name: string): { css?: string; codicons?: string; font?: string; js?: string } {
  return {
    css: inlinable(distUri, `${name}.css`, /<\/style/i),
    codicons: inlinable(distUri, 'codicon.css', /<\/style/i),
    font: iconFont(distUri),
    js: inlinable(distUri, `${name}.js`, /<\/script|<!--/i),
  };
}

/**
 * Reads ahead what page `name` written with `inline` needs, so a page made later does not wait for
 * the disk (the chat's, while the window makes its view after activation).
 */
export function readPageAhead(distUri: vscode.Uri, name: string): void {
  inlineFiles(distUri, name);
}

/** The built files read so far (they change only with a new build, which a reload of the window loads). */
const files = new Map<string, string | undefined>();

/**
 * A built file's text to write into the page, without its source map comment (it would name a file
 * relative to the page); undefined when it cannot be read or holds what would end its element early
 * (then the page links it).
 */
function inlinable(distUri: vscode.Uri, file: string, closes: RegExp): string | undefined {
  const key = vscode.Uri.joinPath(distUri, file).fsPath;
  if (!files.has(key)) {
    let text: string | undefined;
    try { text = fs.readFileSync(key, 'utf8').replace(/\n\/[/*]# sourceMappingURL=\S+(?: \*\/)?\s*$/, '\n'); } catch { text = undefined; }
    files.set(key, text !== undefined && !closes.test(text) ? text : undefined);
  }
  return files.get(key);
}

/** The icon font (dist/webview/codicon.ttf, cut to the glyphs the pages use) in base64; read once per window. */
function iconFont(distUri: vscode.Uri): string | undefined {
  const key = vscode.Uri.joinPath(distUri, 'codicon.ttf').fsPath;
  if (!files.has(key)) {
    let text: string | undefined;
    try { text = fs.readFileSync(key).toString('base64'); } catch { text = undefined; }
    // The package's whole font (126 KB) is not worth writing in: only the cut one (decision 0033).
    files.set(key, text !== undefined && text.length <= 64 * 1024 ? text : undefined);
  }
  return files.get(key);
}

/** A codicon stylesheet without its `@font-face` (the page adds the font from its bytes). */
function withoutFontFace(css: string): string {
  return css.replace(/@font-face\s*\{[^}]*\}/g, '');
}

/**
 * `value` as a JSON data element the page reads (the webview's translations, the chat's first
 * state): not run, so no nonce; `<` escaped so nothing in it can close the element.
 */
export function dataElement(id: string, value: unknown): string {
  return jsonElement(id, JSON.stringify(value));
}

/** dataElement of a value already written as JSON (`json`). */
export function jsonElement(id: string, json: string): string {
  return `<script type="application/json" id="${attr(id)}">${json.replace(/</g, '\\u003c')}</script>`;
}

/** Text for an HTML attribute or element. */
export function attr(text: string): string {
  return text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
}
