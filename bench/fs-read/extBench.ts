// The extension side of the fs-read benchmark, loaded by the extension host as extensionTestsPath
// (built by run.mjs into out/bench/fs-read/extBench.js). It starts read-agent.mjs through
// Switchboard's own chat (so reads go through the real FsHandlers of the extension), opens one
// file with an unsaved edit (served from the buffer) and leaves the other on disk.
// Env: BENCH_OUT (results JSON), BENCH_ROUNDS, BENCH_N, BENCH_AGENT, SWITCHBOARD_NODE.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<SwitchboardApi>('switchboard-acp.switchboard-acp')!;
  const sb = ext.isActive ? ext.exports : await ext.activate();
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Bench: { command: process.env.SWITCHBOARD_NODE || process.execPath, args: [process.env.BENCH_AGENT!] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Bench', vscode.ConfigurationTarget.Global);
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const openFile = path.join(ws, 'open.txt');
  const diskFile = path.join(ws, 'disk.txt');

  // The open buffer has an unsaved edit, so its reads are served from the buffer, not the disk.
  const doc = await vscode.workspace.openTextDocument(openFile);
  await vscode.window.showTextDocument(doc);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), '#');
  await vscode.workspace.applyEdit(edit);
  if (!doc.isDirty) throw new Error('the open buffer is not dirty');

  const reads = async (file: string, n: number): Promise<{ ms: number[]; chars: number }> => {
    await sb.chat.sendPrompt(JSON.stringify({ path: file, n }));
    await new Promise(r => setImmediate(r));
    const last = [...sb.chat.items].reverse().find(i => i.kind === 'agent') as { text: string } | undefined;
    const m = /BENCH (\{.*\})/s.exec(last?.text ?? '');
    if (!m) throw new Error(`no BENCH result for ${file}: ${(last?.text ?? '').slice(0, 300)}`);
    return JSON.parse(m[1]);
  };

  const rounds = Number(process.env.BENCH_ROUNDS || 3);
  const n = Number(process.env.BENCH_N || 20);
  const out: Record<string, { ms: number[]; chars: number }> = {};
  try {
    for (const [name, file] of [['open buffer', openFile], ['disk', diskFile]] as const) {
      await reads(file, 3); // warm-up (also starts the agent)
      out[name] = { ms: [], chars: 0 };
      for (let r = 0; r < rounds; r++) {
        const res = await reads(file, n);
        out[name].ms.push(...res.ms);
        out[name].chars = res.chars;
        await sb.chat.newConversation(); // keep the transcript small
      }
    }
  } finally {
    await sb.chat.stop();
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  fs.writeFileSync(process.env.BENCH_OUT!, JSON.stringify(out));
}
