// Today's Claude and Codex ACP adapters themselves (not our imitation of them), each against a
// scripted model on 127.0.0.1 (modelServer.ts): no network, no real model, a fresh HOME per agent.
// test/runner/run.mjs installs the adapters on first use (install-adapters.sh, versions pinned by
// test/adapters/package-lock.json) and passes their folder as SWITCHBOARD_ADAPTERS.
//
// For each adapter, in its own default mode (it edits without asking) and in its asking mode:
// a read, an edit of an open file with unsaved text, a command. The unsaved-text edit then runs 20
// times in a row: the user's line must survive every time (issue 24, point 1), and only the agent's
// line is listed as its change. And with Switchboard's default settings a new conversation starts in
// the asking mode, so the edit is shown before it is written (issue 24, point 2).
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
  entry(model: ModelServer, home: string, startAsking: boolean): object;
  /** Steps for "edit `old` to `new` in `file`" (Claude's Edit refuses a file it has not read). */
  editSteps(file: string, old: string, replacement: string): Step[];
  /** A command that writes, as the model sends it in that mode. */
  commandStep(command: string, asking: boolean): Step;
}

const adapters: Adapter[] = [
  {
    name: 'Claude', ownDefault: 'auto', askingMode: 'default',
    entry(model, home, startAsking) {
      const config = path.join(home, '.claude');
      fs.mkdirSync(config, { recursive: true });
      if (startAsking) fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
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
    entry(model, home, startAsking) {
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
        env: { HOME: home, CODEX_HOME: codexHome, SWITCHBOARD_TEST_MODEL_KEY: 'test', ...(startAsking ? { INITIAL_AGENT_MODE: 'read-only' } : {}) },
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

  /** A new conversation with `adapter` in a fresh HOME; `asking`: its own settings start it in the asking mode. */
  async function startWith(adapter: Adapter, options: { asking: boolean; startInAskingMode: boolean }): Promise<void> {
    await sb.chat.stop();
    const home = path.join(tmpDir, `adapter-home-${++homes}`);
    fs.mkdirSync(home, { recursive: true });
    await vscode.workspace.getConfiguration('switchboard').update('startInAskingMode', options.startInAskingMode, vscode.ConfigurationTarget.Global);
    await configureAgent(`${adapter.name} (real)`, adapter.entry(model, home, options.asking));
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
  async function unsavedEdit(adapter: Adapter, file: string, asking: boolean): Promise<string | undefined> {
    const before = numbered(12);
    const agent = before.replace('line 9\n', 'line nine\n');
    const both = agent.replace('line 2\n', 'user two\n');
    fs.writeFileSync(file, before);
    const doc = await openWithUnsavedLine(file);
    const tag = model.plan(`edit-${path.basename(file)}`, adapter.editSteps(file, 'line 9\n', 'line nine\n'));
    const log = await turn(`Change line 9 of ${path.basename(file)} ${tag}`, () => fs.readFileSync(file, 'utf8'));
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
      if (JSON.stringify(hunks) !== JSON.stringify([[9, 1, 1]])) problems.push(`listed as the agent's: ${JSON.stringify(hunks)} (only line 9 is)`);
    } catch (e) {
      problems.push((e as Error).message);
    }
    return problems.length ? problems.join('; ') : undefined;
  }

  for (const adapter of adapters) {
    for (const mode of ['own default', 'asking'] as const) {
      describe(`${adapter.name}, ${mode} mode`, () => {
        const asking = mode === 'asking';
        before(async () => { await startWith(adapter, { asking, startInAskingMode: false }); });

        it('reads a file: shown as a read, nothing asked, nothing listed as changed', async () => {
          const file = path.join(root(), `real-${adapter.name}-${asking ? 'asking' : 'default'}-read.txt`);
          fs.writeFileSync(file, 'alpha\nbeta\n');
          const log = await turn(`Read ${path.basename(file)} ${model.plan(`read-${path.basename(file)}`, [{ tool: 'read', path: file }])}`);
          assert.equal(currentMode(), asking ? adapter.askingMode : adapter.ownDefault, 'the conversation is in the mode the adapter started in');
          assert.deepEqual(log.permissions, [], 'a read is never asked about');
          const read = log.items.find(i => i.kind === 'tool' && i.tool.kind === 'read');
          assert.ok(read && read.kind === 'tool', `a read tool call:\n${dump(log.items)}`);
          assert.equal(read.tool.status, 'completed');
          assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nbeta\n');
          assert.equal(changeOf(file), undefined, 'nothing listed as changed');
        });

        it('edits an open file with unsaved text: the user\'s line stays, only the agent\'s line is listed' + (asking ? ', asked before the write' : ''), async () => {
          const file = path.join(root(), `real-${adapter.name}-${asking ? 'asking' : 'default'}-edit.txt`);
          assert.equal(await unsavedEdit(adapter, file, asking), undefined);
        });

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
          it(`edits an open file with unsaved text ${LOOPS} times in a row without a loss`, async function () {
            this.timeout(LOOPS * 15_000);
            const failures: string[] = [];
            for (let i = 1; i <= LOOPS; i++) {
              const file = path.join(root(), `real-${adapter.name}-loop-${i}.txt`);
              const problem = await unsavedEdit(adapter, file, false);
              if (problem) failures.push(`run ${i}: ${problem}`);
              await vscode.commands.executeCommand('workbench.action.files.revert');
              await vscode.commands.executeCommand('workbench.action.closeAllEditors');
              for (const t of sb.review.views()) sb.review.keep(t.turnId);
            }
            assert.deepEqual(failures, [], `${failures.length} of ${LOOPS} runs lost or misattributed the user's text`);
          });
        }
      });
    }

    it(`${adapter.name} with Switchboard's default settings: a new conversation starts in its asking mode, and the edit is asked before the write`, async () => {
      await vscode.workspace.getConfiguration('switchboard').update('startInAskingMode', undefined, vscode.ConfigurationTarget.Global);
      await startWith(adapter, { asking: false, startInAskingMode: true });
      await vscode.workspace.getConfiguration('switchboard').update('startInAskingMode', undefined, vscode.ConfigurationTarget.Global);
      const file = path.join(root(), `real-${adapter.name}-switchboard-default.txt`);
      const problem = await unsavedEdit(adapter, file, true);
      assert.equal(currentMode(), adapter.askingMode, 'the conversation is in the asking mode');
      assert.equal(problem, undefined);
    });
  }
});
