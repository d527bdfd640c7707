// A file's whole text kept as its bytes until something needs it as a string. A ranged read of a
// large file answers from the bytes of its lines only (lines.ts sliceUtf8Lines); the whole text is
// still what the agent saw of the file (the base of its next write, the baseline of its later
// changes on disk), decoded the first time one of those asks for it, once.

export class LazyText {
  private bytes: Uint8Array | undefined;
  private decoded: string | undefined;
  /** The size of the bytes: at least the text's length in UTF-16 units (what budgets count). */
  readonly length: number;

  constructor(bytes: Uint8Array, private readonly decode: (bytes: Uint8Array) => string) {
    this.bytes = bytes;
    this.length = bytes.byteLength;
  }

  /** The bytes, while the text has not been decoded yet (then the bytes are gone). */
  get undecoded(): Uint8Array | undefined {
    return this.bytes;
  }

  get text(): string {
    if (this.decoded === undefined) {
      this.decoded = this.decode(this.bytes!);
      this.bytes = undefined;
    }
    return this.decoded;
  }
}

/** A text, or one decoded when first asked for. */
export type SomeText = string | LazyText;

export function textOf(t: SomeText): string;
export function textOf(t: SomeText | undefined): string | undefined;
export function textOf(t: SomeText | undefined): string | undefined {
  return t === undefined || typeof t === 'string' ? t : t.text;
}
