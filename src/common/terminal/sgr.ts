// Terminal output for the chat card with its colours: only SGR sequences (`ESC[…m`) are kept, every
// other escape is removed and each line is reduced to what a terminal finally shows after carriage
// returns (progress bars); `sgrSpans` then turns the text into styled runs for the webview.
import { stripAnsi } from './ansi';

const SGR = /\x1b\[[0-9;:]*m/g;
/** Everything `stripAnsi` removes, except SGR sequences. */
const strip = (text: string): string =>
  text.split(/(\x1b\[[0-9;:]*m)/).map((part, i) => (i % 2 ? part : stripAnsi(part))).join('');

export function toDisplayText(text: string): string {
  return text.split('\n').map(line => {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    const cr = l.lastIndexOf('\r');
    // Overwritten text goes; the colours set in it still apply to what follows.
    const kept = cr < 0 ? l : (l.slice(0, cr).match(SGR) ?? []).join('') + l.slice(cr + 1);
    return strip(kept);
  }).join('\n');
}

export interface SgrStyle {
  /** 0–15: the theme's ANSI colour; a string: `rgb(…)`. */
  readonly fg?: number | string;
  readonly bg?: number | string;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
}

export interface SgrSpan { readonly text: string; readonly style: SgrStyle }

/** Text with SGR sequences → runs of text with one style each (sequences themselves removed). */
export function sgrSpans(text: string): SgrSpan[] {
  const spans: SgrSpan[] = [];
  let style: { -readonly [K in keyof SgrStyle]: SgrStyle[K] } = {};
  let at = 0;
  const push = (t: string) => { if (t) spans.push({ text: t, style: { ...style } }); };
  for (const m of text.matchAll(SGR)) {
    push(text.slice(at, m.index));
    at = m.index! + m[0].length;
    const codes = m[0].slice(2, -1).split(/[;:]/).map(c => (c === '' ? 0 : Number(c)));
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i];
      if (c === 0) style = {};
      else if (c === 1) style.bold = true;
      else if (c === 2) style.dim = true;
      else if (c === 3) style.italic = true;
      else if (c === 4) style.underline = true;
      else if (c === 7) style.inverse = true;
      else if (c === 22) { style.bold = undefined; style.dim = undefined; }
      else if (c === 23) style.italic = undefined;
      else if (c === 24) style.underline = undefined;
      else if (c === 27) style.inverse = undefined;
      else if (c >= 30 && c <= 37) style.fg = c - 30;
      else if (c >= 90 && c <= 97) style.fg = c - 90 + 8;
      else if (c === 39) style.fg = undefined;
      else if (c >= 40 && c <= 47) style.bg = c - 40;
      else if (c >= 100 && c <= 107) style.bg = c - 100 + 8;
      else if (c === 49) style.bg = undefined;
      else if (c === 38 || c === 48) {
        const color = extended(codes, i);
        i = color.next;
        if (c === 38) style.fg = color.value; else style.bg = color.value;
      }
    }
  }
  push(text.slice(at));
  return spans;
}

/** `38;5;n` (256 colours) or `38;2;r;g;b` (true colour) starting at codes[i]. */
function extended(codes: number[], i: number): { value: number | string | undefined; next: number } {
  if (codes[i + 1] === 5) {
    const n = codes[i + 2];
    if (!Number.isInteger(n) || n < 0 || n > 255) return { value: undefined, next: i + 2 };
    return { value: n < 16 ? n : xterm256(n), next: i + 2 };
  }
  if (codes[i + 1] === 2) {
    const [r, g, b] = codes.slice(i + 2, i + 5).map(v => Math.max(0, Math.min(255, Math.floor(v || 0))));
    return { value: `rgb(${r}, ${g}, ${b})`, next: i + 4 };
  }
  return { value: undefined, next: i };
}

function xterm256(n: number): string {
  if (n >= 232) { const v = 8 + (n - 232) * 10; return `rgb(${v}, ${v}, ${v})`; }
  const c = n - 16;
  const level = (x: number) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${level(Math.floor(c / 36))}, ${level(Math.floor(c / 6) % 6)}, ${level(c % 6)})`;
}
