// Today's Claude and Codex ACP adapters themselves (not our imitation of them), each against a
// scripted model on 127.0.0.1 (modelServer.ts): no network, no real model, a fresh HOME per agent.
// test/runner/run.mjs installs the adapters on first use (install-adapters.sh, versions pinned by
// test/adapters/package-lock.json) and passes their folder as SWITCHBOARD_ADAPTERS.
//
// For each adapter, in its own start mode (it edits without asking; the user turned
// switchboard.startInAskingMode off) and in its asking mode (Switchboard's default settings switch
// the new conversation to it, issue 24 point 2): a read, an edit of an open file with unsaved text,
// a command. In the mode that writes without asking the unsaved-text edit runs 20 times in a row:
// the user's line must survive every time (issue 24 point 1), and only the agent's line is listed
// as its change. In the asking mode the edit and the command are asked before they happen.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { api, configureAgent, dump, NODE, tmpDir, waitFor } from './helpers';
import { ModelServer, type Step } from './modelServer';

const ADAPTERS = process.env.SWITCHBOARD_ADAPTERS;
const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const LOOPS = 20;

interface Adapter {
  readonly name: 'Claude' | 'Codex';
  /** The mode it starts in by itself (writes without asking), and the one that asks before editing. */
  readonly ownDefault: string;
  readonly askingMode: string;
  /** The agent entry for the `switchboard.agents` setting: the adapter on Node, its HOME, pointed at `model`. */
  entry(model: ModelServer, home: string): object;
  /** Steps for "edit `old` to `new` in `file`" (Claude's Edit refuses a file it has not read). */
  editSteps(file: string, old: string, replacement: string): Step[];
  /** A command that writes, as the model sends it in that mode. */
  commandStep(command: string, asking: boolean): Step;
}

const adapters: Adapter[] = [
  {
    name: 'Claude', ownDefault: 'auto', askingMode: 'default',
    entry(model, home) {
      const config = path.join(home, '.claude');
      fs.mkdirSync(config, { recursive: true });
      return {
        command: NODE, args: [path.join(ADAPTERS!, '@agentclientprotocol/claude-agent-acp/dist/index.js')],
        env: {
          HOME: home, CLAUDE_CONFIG_DIR: config, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-test',
          IS_SANDBOX: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
        },
      };
    },
    editSteps: (file, old, replacement) => [{ tool: 'read', path: file }, { tool: 'edit', path: file, old, new: replacement }],
    commandStep: command => ({ tool: 'bash', command }),
  },
  {
    name: 'Codex', ownDefault: 'agent', askingMode: 'read-only',
    entry(model, home) {
      const codexHome = path.join(home, '.codex');
      fs.mkdirSync(codexHome, { recursive: true });
      fs.writeFileSync(path.join(codexHome, 'config.toml'), [
        'model = "gpt-5.5"', 'model_provider = "local"', '',
        '[model_providers.local]', 'name = "local"', `base_url = "${model.url}/v1"`, 'env_key = "SWITCHBOARD_TEST_MODEL_KEY"',
        'wire_api = "responses"', 'request_max_retries = 0', 'stream_max_retries = 0', '',
        `[projects.${JSON.stringify(root())}]`, 'trust_level = "trusted"', '',
      ].join('\n'));
      return {
        command: NODE, args: [path.join(ADAPTERS!, '@agentclientprotocol/codex-acp/dist/index.js')],
        env: { HOME: home, CODEX_HOME: codexHome, SWITCHBOARD_TEST_MODEL_KEY: 'test' },
      };
    },
    editSteps: (file, old, replacement) => [{ tool: 'edit', path: file, old, new: replacement }],
    // In read-only mode a write runs only outside the sandbox, which the model asks for.
    commandStep: (command, asking) => ({ tool: 'bash', command, escalate: asking }),
  },
];

const numbered = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';

describe('Real adapters (today\'s Claude and Codex ACP adapters, scripted model)', function () {
  this.timeout(120_000);
  let sb: SwitchboardApi;
  let model: ModelServer;
  let homes = 0;

  before(async function () {
    assert.ok(ADAPTERS && fs.existsSync(ADAPTERS), `SWITCHBOARD_ADAPTERS (${ADAPTERS}) names the installed adapters: run through test/runner/run.mjs, which installs them`);
    sb = await api();
    model = await new ModelServer().start();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const t of sb.review.views()) sb.review.keep(t.turnId);
  });
  after(async () => {
    await sb.chat.stop();
    await vscode.workspace.getConfiguration('switchboard').update('startInAskingMode', undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
  });

  /**
   * A new conversation with `adapter` (its own HOME, fresh for each adapter): a new session of the
   * running agent when it runs, so both modes share one agent process (its start takes seconds).
   */
  async function startWith(adapter: Adapter, options: { startInAskingMode: boolean }): Promise<void> {
    const name = `${adapter.name} (real)`;
    if (sb.chat.status.agentName !== name) {
      await sb.chat.stop();
      const home = path.join(tmpDir, `adapter-home-${++homes}`);
      fs.mkdirSync(home, { recursive: true });
      await configureAgent(name, adapter.entry(model, home));
    }
    // The default (true) is left unset, as a user who never touched it has it.
    await vscode.workspace.getConfiguration('switchboard').update('startInAskingMode', options.startInAskingMode ? undefined : false, vscode.ConfigurationTarget.Global);
    await sb.chat.newConversation();
  }

  /** The current mode as the conversation shows it (the `mode` config option, else the legacy modes). */
  function currentMode(): string | undefined {
    const meta = sb.chat.active.meta;
    const option = meta.configOptions.find(o => o.category === 'mode' || o.id === 'mode');
    if (option && option.type === 'select') return option.currentValue;
    return meta.modes?.currentModeId;
  }

  interface TurnLog { permissions: Array<{ title: string; seenOnDisk: string | undefined }>; items: readonly Item[] }

  /** One prompt, allowing once every permission asked; `probe` records the disk when each request is shown. */
  async function turn(prompt: string, probe: () => string | undefined = () => undefined): Promise<TurnLog> {
    const before = new Set(sb.chat.items.map(i => i.id));
    const seen = new Set(before);
    const permissions: TurnLog['permissions'] = [];
    const done = sb.chat.sendPrompt(prompt);
    let finished = false;
    void done.finally(() => { finished = true; });
    while (!finished) {
      for (const item of sb.chat.items) {
        if (item.kind === 'permission' && item.permission.outcome === undefined && !seen.has(item.id)) {
          seen.add(item.id);
          permissions.push({ title: item.permission.title, seenOnDisk: probe() });
          const allow = item.permission.options.find(o => o.kind === 'allow_once') ?? item.permission.options.find(o => o.kind.startsWith('allow'));
          assert.ok(allow, `an allow option in ${JSON.stringify(item.permission.options)}`);
          sb.chat.answerPermission(item.id, allow.optionId);
        }
      }
      await new Promise(r => setTimeout(r, 20));
    }
    assert.equal(await done, 'sent');
    // (Older turns may be archived meanwhile: what this turn added is what was not there before.)
    const items = sb.chat.items.filter(i => !before.has(i.id));
    const end = items.find(i => i.kind === 'turnEnd');
    assert.ok(end && end.kind === 'turnEnd' && end.stopReason === 'end_turn', `the turn ended normally:\n${dump(sb.chat.items.slice(-12))}`);
    return { permissions, items };
  }

  function changeOf(file: string) {
    const turn = sb.review.views().find(t => t.files.some(f => f.path === file));
    return turn ? { turnId: turn.turnId, file: turn.files.find(f => f.path === file)! } : undefined;
  }

  /**
   * Writes a file the test sets up and waits until VS Code's file watcher reported it (to us, and so
   * to the extension): a write still in flight when the turn starts would be taken for the agent's.
   */
  async function writeSettled(file: string, text: string): Promise<void> {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(path.dirname(file), path.basename(file)));
    try {
      const seen = new Promise<void>(resolve => { watcher.onDidCreate(() => resolve()); watcher.onDidChange(() => resolve()); });
      fs.writeFileSync(file, text);
      await Promise.race([seen, new Promise((_, reject) => setTimeout(() => reject(new Error(`the file watcher never reported ${file}`)), 10_000))]);
    } finally {
      watcher.dispose();
    }
  }

  /** Opens `file` and types a line of the user's into it, unsaved. */
  async function openWithUnsavedLine(file: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    assert.ok(await editor.edit(e => e.replace(new vscode.Range(1, 0, 1, 6), 'user two')));
    assert.ok(doc.isDirty);
    return doc;
  }

  /**
   * The scenario of issue 24 point 1 with the real adapter: a file open with an unsaved line of the
   * user's; the agent edits another line in its own process. Returns what went wrong, or undefined.
   */
  async function unsavedEdit(adapter: Adapter, file: string, asking: boolean, run = 0): Promise<string | undefined> {
    // Run 0: a new file. Run n of a loop: the same file, as the agent left it after run n-1, whose
    // line n+8 the agent edits now (so Claude, which wrote it last, needs no Read before its Edit).
    if (run <= 1) await writeSettled(file, numbered(30));
    const before = fs.readFileSync(file, 'utf8');
    const target = `line ${run + 8}\n`;
    const agent = before.replace(target, `line ${run + 8} edited\n`);
    const both = agent.replace('line 2\n', 'user two\n');
    const steps = adapter.editSteps(file, target, `line ${run + 8} edited\n`);
    const doc = await openWithUnsavedLine(file);
    const tag = model.plan(`edit-${path.basename(file)}-${run}`, run > 1 ? steps.filter(step => !('tool' in step) || step.tool !== 'read') : steps);
    const log = await turn(`Change line ${run + 8} of ${path.basename(file)} ${tag}`, () => fs.readFileSync(file, 'utf8'));
    const problems: string[] = [];
    if (asking) {
      if (log.permissions.length === 0) problems.push('the edit was written without a question');
      else if (log.permissions[0].seenOnDisk !== before) problems.push(`the file was written before the question (disk: ${JSON.stringify(log.permissions[0].seenOnDisk)})`);
    } else if (log.permissions.length) {
      problems.push(`asked ${log.permissions.length} question(s) in a mode that writes without asking: ${log.permissions.map(p => p.title).join('; ')}`);
    }
    if (fs.readFileSync(file, 'utf8') !== agent) problems.push(`disk: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`);
    // The tab keeps the user's line and shows the agent's: merged (the two edits are far apart).
    try {
      await waitFor(() => `tab ${JSON.stringify(doc.getText())}`, () => doc.getText() === both, 10_000);
    } catch (e) {
      problems.push(`the tab holds ${JSON.stringify(doc.getText())}, not the user's line and the agent's (${(e as Error).message})`);
    }
    if (!doc.isDirty) problems.push('the user\'s line is no longer unsaved');
    try {
      const change = await waitFor('the change to be listed', () => changeOf(file), 10_000);
      const hunks = change.file.hunks.map(h => [h.curLine, h.added, h.removed]);
      if (JSON.stringify(hunks) !== JSON.stringify([[run + 8, 1, 1]])) problems.push(`listed as the agent's: ${JSON.stringify(hunks)} (only line ${run + 8} is)`);
    } catch (e) {
      problems.push((e as Error).message);
    }
    return problems.length ? problems.join('; ') : undefined;
  }

  for (const adapter of adapters) {
    for (const mode of ['own default', 'asking'] as const) {
      describe(`${adapter.name}, ${mode} mode`, () => {
        const asking = mode === 'asking';
        // Own default: the user turned switchboard.startInAskingMode off. Asking: Switchboard's default
        // settings, which switch the new conversation to the adapter's asking mode (issue 24 point 2).
        before(async () => { await startWith(adapter, { startInAskingMode: asking }); });

        it('reads a file: shown as a read, nothing asked, nothing listed as changed', async () => {
          const file = path.join(root(), `real-${adapter.name}-${asking ? 'asking' : 'default'}-read.txt`);
          await writeSettled(file, 'alpha\nbeta\n');
          const log = await turn(`Read ${path.basename(file)} ${model.plan(`read-${path.basename(file)}`, [{ tool: 'read', path: file }])}`);
          assert.equal(currentMode(), asking ? adapter.askingMode : adapter.ownDefault,
            asking ? 'with Switchboard\'s default settings the new conversation is in the asking mode' : 'the adapter\'s own start mode is kept');
          assert.deepEqual(log.permissions, [], 'a read is never asked about');
          const read = log.items.find(i => i.kind === 'tool' && i.tool.kind === 'read');
          assert.ok(read && read.kind === 'tool', `a read tool call:\n${dump(log.items)}`);
          assert.equal(read.tool.status, 'completed');
          assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nbeta\n');
          assert.equal(changeOf(file), undefined, 'nothing listed as changed');
        });

        if (asking) {
          it('edits an open file with unsaved text: asked before the write; the user\'s line stays, only the agent\'s line is listed', async () => {
            const file = path.join(root(), `real-${adapter.name}-asking-edit.txt`);
            assert.equal(await unsavedEdit(adapter, file, true), undefined);
          });
        }

        it('runs a command' + (asking ? ', asked before it runs' : ''), async () => {
          const marker = path.join(root(), `real-${adapter.name}-${asking ? 'asking' : 'default'}-ran.txt`);
          fs.rmSync(marker, { force: true });
          const command = `echo ran > ${marker}`;
          const log = await turn(`Run it ${model.plan(`cmd-${path.basename(marker)}`, [adapter.commandStep(command, asking)])}`,
            () => (fs.existsSync(marker) ? 'ran' : 'not yet'));
          if (asking) assert.deepEqual(log.permissions.map(p => p.seenOnDisk), ['not yet'], 'one question, before the command ran');
          const tool = log.items.find(i => i.kind === 'tool' && i.tool.kind === 'execute');
          assert.ok(tool && tool.kind === 'tool', `a command tool call:\n${dump(log.items)}`);
          await waitFor(() => `the command's card to complete (${tool.kind === 'tool' ? tool.tool.status : ''})`, () => {
            const now = sb.chat.items.find(i => i.id === tool.id);
            return now?.kind === 'tool' && now.tool.status === 'completed';
          });
          assert.equal(fs.readFileSync(marker, 'utf8'), 'ran\n');
        });

        if (!asking) {
          it(`edits an open file with unsaved text ${LOOPS} times in a row: the user's line stays, only the agent's line is listed`, async function () {
            this.timeout(LOOPS * 15_000);
            const failures: string[] = [];
            const started = Date.now();
            const file = path.join(root(), `real-${adapter.name}-loop.txt`);
            for (let i = 1; i <= LOOPS; i++) {
              const problem = await unsavedEdit(adapter, file, false, i);
              if (problem) failures.push(`run ${i}: ${problem}`);
              await vscode.commands.executeCommand('workbench.action.files.revert');
              await vscode.commands.executeCommand('workbench.action.closeAllEditors');
              for (const t of sb.review.views()) sb.review.keep(t.turnId);
            }
            console.log(`      ${adapter.name}: ${LOOPS} runs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures.length} lost or misattributed`);
            assert.deepEqual(failures, [], `${failures.length} of ${LOOPS} runs lost or misattributed the user's text`);
          });
        }
      });
    }
  }
});
