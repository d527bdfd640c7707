// Types of scripts/codicons.mjs for the unit tests.
type Fs = typeof import('node:fs');
type Path = typeof import('node:path');
export function codiconGlyphs(css: string): Map<string, string>;
export function usedCodicons(sources: string[], glyphs: Map<string, string>): Set<string>;
export function unknownCodicons(sources: string[], css: string): string[];
export function subsetCodiconCss(css: string, used: Iterable<string>): string;
export function codiconSources(fs: Fs, path: Path, root?: string): string[];
export function codePoints(css: string, used: Iterable<string>): number[];
export function fontCodePoints(ttf: Uint8Array): Set<number>;
export function pageCodicons(fs: Fs, path: Path, packageDist: string, subsetFont: (font: Buffer, text: string, options: { targetFormat: 'truetype' }) => Promise<Buffer>, root?: string): Promise<{ css: string; ttf: Buffer }>;
