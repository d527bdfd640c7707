// src/common builds some of the text the user reads (form errors, the terminal's exit line, how an
// agent ended…) but must not import `vscode`: it uses `@vscode/l10n`, and this hands that module the
// bundle VS Code loaded for this extension (l10n/bundle.l10n.<language>.json), so those strings are
// translated like the host's `vscode.l10n.t`. No bundle (English): the text as written.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

/** Called once at activation, before anything in src/common builds text. */
export function configureCommonL10n(): void {
  const bundle = vscode.l10n.bundle;
  if (bundle) l10n.config({ contents: bundle });
}
