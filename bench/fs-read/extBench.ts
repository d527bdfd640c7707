// The extension side of the fs-read benchmark, loaded by the extension host as extensionTestsPath
// (bundled by run.mjs into its temp dir). It drives read-agent.mjs through
// Switchboard's own chat, so reads go through the extension's real FsHandlers: one file open with an
// unsaved edit (served from the buffer), one only on disk. Rounds alternate with a bare SDK client
// (bareClient.mjs) running in this same process and reading the same file from disk, so both see
// the same machine load.
// Env: BENCH_OUT (results JSON), BENCH_ROUNDS, BENCH_N, BENCH_AGENT, SWITCHBOARD_NODE.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
// @ts-expect-error plain ESM module without types, bundled by esbuild
import { startBare } from './bareClient.mjs';

interface Series { ms: number[]; chars: number }

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<SwitchboardApi>('switchboard-acp.switchboard-acp')!;
  const sb = ext.isActive ? ext.exports : await ext.activate();
  const node = process.env.SWITCHBOARD_NODE || process.execPath;
  const agentPath = process.env.BENCH_AGENT!;
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Bench: { command: node, args: [agentPath] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Bench', vscode.ConfigurationTarget.Global);
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const openFile = path.join(ws, 'open.txt');
  const diskFile = path.join(ws, 'disk.txt');

  const doc = await vscode.workspace.openTextDocument(openFile);
  await vscode.window.showTextDocument(doc);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), '#');
  await vscode.workspace.applyEdit(edit);
  if (!doc.isDirty) throw new Error('the open buffer is not dirty');

  const viaExtension = async (file: string, n: number): Promise<Series> => {
    await sb.chat.sendPrompt(JSON.stringify({ path: file, n }));
    await new Promise(r => setImmediate(r));
    const last = [...sb.chat.items].reverse().find(i => i.kind === 'agent') as { text: string } | undefined;
    const m = /BENCH (\{.*\})/s.exec(last?.text ?? '');
    if (!m) throw new Error(`no BENCH result for ${file}: ${(last?.text ?? '').slice(0, 300)}`);
    return JSON.parse(m[1]);
  };
  const bare = await startBare({ node, agentPath, cwd: ws });

  const rounds = Number(process.env.BENCH_ROUNDS || 3);
  const n = Number(process.env.BENCH_N || 20);
  const out: Record<string, Series> = {};
  const add = (key: string, s: Series) => {
    out[key] ??= { ms: [], chars: 0 };
    out[key].ms.push(...s.ms);
    out[key].chars = s.chars;
  };
  try {
    for (const [name, file] of [['open buffer', openFile], ['disk', diskFile]] as const) {
      await viaExtension(file, 3); // warm-up (also starts the agent)
      await bare.reads(file, 3);
      for (let r = 0; r < rounds; r++) {
        add(name, await viaExtension(file, n));
        add(`bare ${name}`, await bare.reads(file, n));
        await sb.chat.newConversation(); // keep the transcript small
      }
    }
  } finally {
    bare.close();
    await sb.chat.stop();
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  fs.writeFileSync(process.env.BENCH_OUT!, JSON.stringify(out));
}
