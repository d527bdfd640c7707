// Markdown that grows while it streams. Finished blocks (up to the last blank line outside a code
// fence) are rendered once and frozen; only the open tail is re-rendered, and no more often than
// its own render cost allows (at most ~20% of the time), so a long answer stays cheap to stream.
// Text that arrives between two renders is shown at once as plain text, then formatted. A message
// longer than `maxChars` shows only its beginning (onCut is called once): the full text is one
// click away in an editor, never a frozen view. Until the markdown renderer has loaded (it loads on
// first need, see lazyMarkdown.ts) the whole text is shown as plain text, and rendered when it arrives.
import { plainText } from '../src/common/plainMarkdown';
import { loadedMarkdown, setParagraphs, withMarkdown } from './lazyMarkdown';

const COST_FACTOR = 4;

export class StreamedMarkdown {
  private frozenChars = 0;
  private readonly tail: HTMLElement;
  /** Text that arrived since the last markdown render, shown as plain text until the next one. */
  private raw: Text | undefined;
  private notBefore = 0;

  private cut = false;
  /** Shown as plain text, waiting for the renderer to load. */
  private waiting = false;

  constructor(
    private readonly container: HTMLElement, private text: string,
    private readonly limit: { readonly maxChars: number; onCut(): void } = { maxChars: Infinity, onCut: () => {} },
  ) {
    this.tail = document.createElement('div');
    container.append(this.tail);
    this.text = this.within(text);
    this.render(true);
  }

  append(more: string): void {
    if (this.cut) return;
    const before = this.text.length;
    this.text = this.within(this.text + more);
    more = this.text.slice(before);
    if (!more) return;
    if (!this.raw) {
      this.raw = document.createTextNode('');
      (this.tail.lastElementChild ?? this.tail).append(this.raw);
    }
    // Visible at once; formatted at the next markdown render.
    this.raw.appendData(more);
  }

  /** The text cut to the display limit; the first cut tells the owner. */
  private within(text: string): string {
    if (text.length <= this.limit.maxChars) return text;
    if (!this.cut) { this.cut = true; this.limit.onCut(); }
    return text.slice(0, this.limit.maxChars);
  }

  /** Renders unless it rendered too recently (returns false: call again later) or `force` is set. */
  render(force: boolean): boolean {
    const start = performance.now();
    if (!force && start < this.notBefore) return false;
    this.raw = undefined;
    // Text without markdown (src/common/plainMarkdown.ts): its paragraphs, as markdown-it renders them, without it.
    const plain = plainText(this.text.slice(this.frozenChars));
    if (plain) {
      if (plain.lastBlockBoundary) {
        const block = document.createElement('div');
        setParagraphs(block, plain.paragraphs.slice(0, -1));
        this.container.insertBefore(block, this.tail);
        this.frozenChars += plain.lastBlockBoundary;
      }
      const paragraphs = plain.paragraphs.slice(plain.lastBlockBoundary ? -1 : 0);
      // While it streams, text appended as it came (see append) already shows these paragraphs
      // (but for spaces at their ends): nothing is written, nothing laid out again. Once it is
      // finished (force), the paragraphs are exactly markdown-it's.
      if (!shows(this.tail, paragraphs, force)) setParagraphs(this.tail, paragraphs);
      this.notBefore = start + (performance.now() - start) * COST_FACTOR;
      return true;
    }
    const md = loadedMarkdown();
    if (!md) {
      this.showPlain();
      return true;
    }
    this.tail.classList.remove('md-plain');
    const boundary = this.frozenChars + md.lastBlockBoundary(this.text.slice(this.frozenChars));
    if (boundary > this.frozenChars) {
      const block = document.createElement('div');
      block.innerHTML = md.renderMarkdown(this.text.slice(this.frozenChars, boundary));
      this.container.insertBefore(block, this.tail);
      this.frozenChars = boundary;
    }
    this.tail.innerHTML = md.renderMarkdown(this.text.slice(this.frozenChars));
    this.notBefore = start + (performance.now() - start) * COST_FACTOR;
    return true;
  }

  /** The text as it is (textContent: never HTML), line breaks kept; rendered once the renderer arrives. */
  private showPlain(): void {
    this.tail.classList.add('md-plain');
    this.tail.textContent = this.text.slice(this.frozenChars);
    if (this.waiting) return;
    this.waiting = true;
    withMarkdown(() => { this.waiting = false; this.render(true); });
  }
}

/** Whether `el` shows these paragraphs, one <p> each (`exact`: else but for spaces at their ends). */
function shows(el: HTMLElement, paragraphs: readonly string[], exact: boolean): boolean {
  const ps = el.children;
  if (ps.length !== paragraphs.length || el.classList.contains('md-plain')) return false;
  for (let i = 0; i < ps.length; i++) {
    const text = ps[i].textContent!;
    if (ps[i].tagName !== 'P' || (text !== paragraphs[i] && (exact || text.replace(/ +$/, '') !== paragraphs[i]))) return false;
  }
  return true;
}
