// Turns what the user typed (text, @-mentioned files, pasted images) into ACP content blocks,
// within what the agent accepts: `resource_link` always, an embedded `resource` when the agent has
// `embeddedContext`, images only with `image`. Anything else is refused with a message, never dropped.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { PastedImage } from '../common/protocol';

const MAX_EMBED_BYTES = 512 * 1024;
const MAX_EMBED_CHARS = 512 * 1024;

export async function buildPrompt(
  text: string, mentions: readonly string[], images: readonly PastedImage[], caps: acp.PromptCapabilities,
): Promise<{ blocks: acp.ContentBlock[] } | { refused: string }> {
  if (images.length && !caps.image) return { refused: vscode.l10n.t('This agent does not accept images; remove the pasted image to send the prompt.') };
  const blocks: acp.ContentBlock[] = [];
  if (text.trim()) blocks.push({ type: 'text', text });
  for (const image of images) blocks.push({ type: 'image', mimeType: image.mimeType, data: image.data });
  for (const mention of new Set(mentions)) {
    const uri = resolveMention(mention);
    if (!uri) return { refused: vscode.l10n.t('Cannot attach "{0}": open a folder to mention its files.', mention) };
    blocks.push(caps.embeddedContext ? await embed(uri) : link(uri));
  }
  return { blocks };
}

function resolveMention(mention: string): vscode.Uri | undefined {
  if (path.isAbsolute(mention)) return vscode.Uri.file(mention);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, mention) : undefined;
}

function link(uri: vscode.Uri): acp.ContentBlock {
  return { type: 'resource_link', uri: uri.toString(), name: path.basename(uri.fsPath) };
}

/** The buffer's text when the file is open (unsaved edits included), else the file; large or binary files stay links. */
async function embed(uri: vscode.Uri): Promise<acp.ContentBlock> {
  const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    return text.length > MAX_EMBED_CHARS ? link(uri) : { type: 'resource', resource: { uri: uri.toString(), text, mimeType: 'text/plain' } };
  }
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type !== vscode.FileType.File || stat.size > MAX_EMBED_BYTES) return link(uri);
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.includes(0)) return link(uri);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { type: 'resource', resource: { uri: uri.toString(), text, mimeType: 'text/plain' } };
  } catch {
    return link(uri);
  }
}
