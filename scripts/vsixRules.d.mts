// Types of scripts/vsixRules.mjs for the unit tests.
export function checkListing(files: string[]): string[];
export function checkWebviewImports(files: string[], read: (file: string) => string): string[];
export function localize<T>(value: T, nls: Record<string, string>): T;
export function missingNlsKeys(manifest: object, nls: Record<string, string>): string[];
export const MARKETPLACE_CATEGORIES: readonly string[];
export function checkManifest(manifest: Record<string, any>, nls: Record<string, string>, icon: Buffer | undefined): string[];
export function checkReadmeImages(markdown: string): { images: string[]; problems: string[] };
