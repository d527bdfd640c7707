// The webview's translations. The host puts VS Code's loaded bundle for this extension and the UI
// language into a JSON data element (`<script type="application/json" id="l10n">`: data, never
// run); this module reads it and configures @vscode/l10n. Imported first by main.ts, so every
// `l10n.t` (module-level tables included) sees the bundle. No bundle: the English text as written.
import * as l10n from '@vscode/l10n';

interface L10nData { readonly lang?: string; readonly bundle?: Record<string, string> }

function read(): L10nData {
  try {
    const data: unknown = JSON.parse(document.getElementById('l10n')?.textContent || '{}');
    return data && typeof data === 'object' ? data as L10nData : {};
  } catch {
    return {};
  }
}

const data = read();
if (data.bundle && typeof data.bundle === 'object') l10n.config({ contents: data.bundle });

/** The UI language (VS Code's `env.language`), for number formats; 'en' when it is not a valid tag. */
export const uiLanguage: string = validTag(data.lang) ?? 'en';

function validTag(lang: unknown): string | undefined {
  try {
    return typeof lang === 'string' && lang ? Intl.getCanonicalLocales(lang)[0] : undefined;
  } catch {
    return undefined;
  }
}
