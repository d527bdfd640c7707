// A prompt is never lost on its way to the agent: one whose sending fails before it reaches the agent
// (any error, not only the ones foreseen) goes back where it came from, the prompt box or the queue,
// and the conversation says why. The failure is forced by making the agent's start throw (no
// scripted agent can: every foreseen failure there is answered 'notSent' already).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { HostMessage } from '../../src/common/protocol';
import { api, lastOf, tmpDir, useScriptedAgent, waitFor } from './helpers';

/** The controller's agent start, replaced for a test (private: reached through a cast). */
type Starts = { ensureRuntime: (...args: unknown[]) => Promise<unknown> };

describe('A prompt whose sending fails', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  /** Makes the agent's start throw until the returned function is called. */
  function failStarts(): () => void {
    const chat = sb.chat as unknown as Starts;
    const real = chat.ensureRuntime;
    chat.ensureRuntime = () => Promise.reject(new Error('the disk is full'));
    return () => { chat.ensureRuntime = real; };
  }

  it('sent from the prompt box: goes back into the box, is kept as the draft, and the conversation says why', async () => {
    await useScriptedAgent({ turns: [] });
    await vscode.commands.executeCommand('switchboard.openChat');
    await waitFor('the side bar\'s page is ready', () => sb.view.surfaceList.find(s => s.id === 'view' && s.ready));
    const posted: HostMessage[] = [];
    const sub = sb.view.onDidPost(({ surface, message }) => { if (surface === 'view') posted.push(message); });
    const restore = failStarts();
    try {
      const tab = sb.chat.activeTab;
      // What the page sends on Enter: the prompt, then its emptied box as the draft.
      sb.view.receive('view', { type: 'prompt/send', text: 'keep me', mentions: ['src/hello.ts'], images: [] });
      sb.view.receive('view', { type: 'composer/draft', text: '', mentions: [], images: [] });
      const back = await waitFor('the prompt back in the box', () => posted.find(m => m.type === 'composer/restore'), 5_000);
      assert.deepEqual(back, { type: 'composer/restore', text: 'keep me', mentions: ['src/hello.ts'], images: [] });
      assert.match(lastOf(sb.chat.items, 'error')?.message ?? '', /^The prompt could not be sent: the disk is full/);
      assert.equal(sb.chat.draftOf(tab)?.text, 'keep me', 'a new page (the view hidden and shown again) gets it back too');
      assert.equal(sb.chat.active.busy, false);
    } finally {
      restore();
      sub.dispose();
    }
  });

  it('queued: stays queued, held for the next prompt', async () => {
    const file = path.join(tmpDir, 'unsent-release');
    await useScriptedAgent({ turns: [{ match: '^hold$', steps: [{ type: 'text', text: 'working' }, { type: 'awaitFile', path: file }] }] });
    const turn = sb.chat.sendPrompt('hold');
    await waitFor('the agent working', () => lastOf(sb.chat.items, 'agent')?.text === 'working');
    assert.equal(await sb.chat.sendPrompt('later'), 'queued');
    const restore = failStarts();
    try {
      fs.writeFileSync(file, '');
      await turn;
      await waitFor('the queued message\'s failure told', () => lastOf(sb.chat.items, 'error'), 5_000);
      const queue = sb.chat.queueView()!;
      assert.deepEqual([queue.items.map(i => i.text), queue.paused], [['later'], true]);
    } finally {
      restore();
    }
  });
});
