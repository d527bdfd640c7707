// How a file's text is stored on disk (its own module: the webview's types reach it through the
// review model, and must not pull in the Node code of encoding.ts).

/** A file's encoding as VS Code names it (`files.encoding` ids: utf8, utf16le, windows1252, shiftjis…), and whether it starts with a BOM. */
export interface TextForm {
  readonly encoding: string;
  readonly bom: boolean;
}
