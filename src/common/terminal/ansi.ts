// Plain text for places that are not a terminal (the chat card): escape sequences removed, and each
// line reduced to what a terminal would finally show after carriage returns (progress bars).

// CSI, OSC (BEL or ST terminated), and other two-character escapes.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, '');
}

export function toPlainText(text: string): string {
  return stripAnsi(text).split('\n').map(line => {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    const cr = l.lastIndexOf('\r');
    return cr < 0 ? l : l.slice(cr + 1);
  }).join('\n');
}
