// Sending while the agent works, in a real VS Code with the scripted agent: messages typed during a
// turn are queued and go out when it ends, in order; they can be edited and removed; Stop keeps them
// without sending; "Send now" steers one into the running turn (`_session/steering`) when the agent
// announced steering, and a message the agent did not take goes back to the queue with the reason.
// Turns are held open by the agent until the test writes a file or steers a message: no sleeps.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { agentEvents, api, dump, lastOf, tmpDir, useScriptedAgent, waitFor } from './helpers';

let releases = 0;
/** A turn that says "working" and then waits until the test releases it. */
function heldTurn(match: string): { turn: object; release: () => void } {
  const file = path.join(tmpDir, `release-${++releases}`);
  return {
    turn: { match, steps: [{ type: 'text', text: 'working' }, { type: 'awaitFile', path: file }, { type: 'text', text: ' done' }] },
    release: () => fs.writeFileSync(file, ''),
  };
}

const prompts = (log: string) => agentEvents(log).filter(e => e.event === 'prompt')
  .map(e => ((e.params as { prompt: { text?: string }[] }).prompt).map(b => b.text ?? '').join(''));
/** The transcript as the user reads it: who said what, and where turns ended. */
const story = (items: readonly Item[]) => items.map(i => i.kind === 'user' ? `you: ${i.text}` : i.kind === 'agent' ? `agent: ${i.text}`
  : i.kind === 'turnEnd' ? `-- ${i.stopReason}` : i.kind === 'notice' ? `note: ${i.text}` : i.kind);

describe('Queued and steered messages', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  const queued = () => sb.chat.queueView()!.items.map(i => i.text);
  const working = () => waitFor('the agent working', () => lastOf(sb.chat.items, 'agent')?.text === 'working');
  /** Sends "hold": its turn says "working" and goes on when released. */
  async function holding(script: object = {}): Promise<{ log: string; turn: Promise<unknown>; release: () => void }> {
    const held = heldTurn('^hold$');
    const { log } = await useScriptedAgent({ ...script, turns: [held.turn] });
    const turn = sb.chat.sendPrompt('hold');
    await working();
    return { log, turn, release: held.release };
  }
  /** `n` prompts reached the agent and their turns ended; nothing is being sent. */
  const answered = (log: string, n: number) => waitFor(`${n} turns answered`, () =>
    prompts(log).length === n && !sb.chat.active.busy && sb.chat.items.filter(i => i.kind === 'turnEnd').length === n);

  it('queues what is typed during a turn and sends it when the turn ends, one turn each, in order', async () => {
    const held = heldTurn('^first$');
    const { log } = await useScriptedAgent({ turns: [held.turn] });
    const first = sb.chat.sendPrompt('first');
    await working();
    assert.equal(await sb.chat.sendPrompt('second'), 'queued');
    assert.equal(await sb.chat.sendPrompt('third', ['src/hello.ts']), 'queued');
    assert.deepEqual(queued(), ['second', 'third']);
    assert.deepEqual(sb.chat.queueView()!.items[1].mentions, ['src/hello.ts']);
    assert.deepEqual(prompts(log), ['first'], 'nothing queued reached the agent during the turn');
    assert.equal(sb.chat.queueView()!.sendNow, 'none', 'no steering announced: no Send now into the turn');

    held.release();
    await first;
    await answered(log, 3);
    assert.deepEqual(story(sb.chat.items), [
      'you: first', 'agent: working done', '-- end_turn',
      'you: second', 'agent: echo: second', '-- end_turn',
      'you: third', 'agent: echo: third', '-- end_turn',
    ], dump(sb.chat.items));
    assert.match(prompts(log)[2], /^third/, 'the mention went with it');
    assert.deepEqual(queued(), []);
  });

  it('removes and edits queued messages; one being edited holds the queue until it is saved', async () => {
    const { log, turn, release } = await holding();
    for (const t of ['a', 'b', 'c']) await sb.chat.sendPrompt(t);
    const [a, b, c] = sb.chat.queueView()!.items;
    const tab = sb.chat.activeTab;
    await sb.chat.queueAction(tab, b.id, 'remove');
    await sb.chat.queueAction(tab, a.id, 'edit');
    assert.equal(sb.chat.queueView()!.items[0].editing, true);
    sb.chat.saveQueued(tab, a.id, 'a, edited');
    await sb.chat.queueAction(tab, c.id, 'edit');
    assert.deepEqual(queued(), ['a, edited', 'c']);

    release();
    await turn;
    await answered(log, 2);
    assert.deepEqual(prompts(log), ['hold', 'a, edited'], 'c is open in the editor: it waits');
    assert.deepEqual(sb.chat.queueView()!.items.map(i => [i.text, i.editing]), [['c', true]]);

    sb.chat.saveQueued(tab, c.id, 'c, edited');
    await answered(log, 3);
    assert.deepEqual(prompts(log), ['hold', 'a, edited', 'c, edited'], 'b was removed');
    assert.deepEqual(queued(), []);
  });

  it('Stop keeps the queue without sending it and says so; the queue follows the next prompt', async () => {
    const { log, turn } = await holding();
    await sb.chat.sendPrompt('later');
    await sb.chat.cancelTurn();
    await turn;
    assert.equal(lastOf(sb.chat.items, 'turnEnd')?.stopReason, 'cancelled');
    assert.match(lastOf(sb.chat.items, 'notice')?.text ?? '', /^Stopped\. The queued messages were not sent/);
    assert.deepEqual([queued(), sb.chat.queueView()!.paused, sb.chat.queueView()!.sendNow], [['later'], true, 'prompt']);
    assert.deepEqual(prompts(log), ['hold'], 'nothing sent after Stop');

    assert.equal(await sb.chat.sendPrompt('now this'), 'sent');
    await answered(log, 3);
    assert.deepEqual(prompts(log), ['hold', 'now this', 'later']);
    assert.deepEqual([queued(), sb.chat.queueView()!.paused], [[], false]);
  });

  it('what was queued while a prompt that never reached the agent was on its way waits; Send now sends it', async () => {
    const { log } = await useScriptedAgent({ agentCapabilities: { promptCapabilities: { image: false } } });
    const first = sb.chat.sendPrompt('look', [], [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    assert.equal(await sb.chat.sendPrompt('and then this'), 'queued');
    assert.equal(await first, 'notSent');
    const view = sb.chat.queueView()!;
    assert.deepEqual([view.items.map(i => i.text), view.paused, view.sendNow], [['and then this'], true, 'prompt']);
    assert.deepEqual(prompts(log), []);
    await sb.chat.queueAction(sb.chat.activeTab, view.items[0].id, 'sendNow');
    assert.deepEqual(prompts(log), ['and then this']);
    assert.deepEqual(queued(), []);
  });

  it('Send now steers the message into the running turn of an agent that announced steering', async () => {
    const { log } = await useScriptedAgent({
      steering: true,
      turns: [{ match: '^go$', steps: [{ type: 'text', text: 'working' }, { type: 'awaitSteer' }, { type: 'text', text: ' done' }] }],
    });
    const turn = sb.chat.sendPrompt('go');
    await working();
    await sb.chat.sendPrompt('use tabs', ['src/hello.ts']);
    const view = sb.chat.queueView()!;
    assert.equal(view.sendNow, 'steer');
    await sb.chat.queueAction(sb.chat.activeTab, view.items[0].id, 'sendNow');
    assert.deepEqual(queued(), [], 'delivered: no longer queued');
    await turn;
    assert.deepEqual(story(sb.chat.items), ['you: go', 'agent: working', 'you: use tabs', 'agent: steered: use tabs done', '-- end_turn'], dump(sb.chat.items));
    assert.deepEqual(prompts(log), ['go'], 'one turn: the message joined it, no new session/prompt');
    const steer = agentEvents(log).find(e => e.event === 'steer');
    assert.deepEqual([steer?.sessionId, steer?.text, steer?.outcome], [sb.chat.sessionId, 'use tabs', 'injected']);
  });

  it('no Send now into a turn when the agent did not announce steering: the message waits for the turn to end', async () => {
    const { log, turn, release } = await holding();
    await sb.chat.sendPrompt('wait for it');
    const view = sb.chat.queueView()!;
    assert.equal(view.sendNow, 'none');
    await sb.chat.queueAction(sb.chat.activeTab, view.items[0].id, 'sendNow');
    assert.deepEqual(queued(), ['wait for it'], 'still queued');
    release();
    await turn;
    await answered(log, 2);
    assert.equal(agentEvents(log).filter(e => e.event === 'steer').length, 0, 'never steered');
  });

  for (const [what, steering, reason] of [
    ['an error (method not found)', { error: { code: -32601, message: 'Method not found' } }, /Not sent into the running turn: .*Method not found/],
    ['the outcome "failed"', { outcome: 'failed' }, /did not take the message into its running turn/],
  ] as const) {
    it(`a steering request answered with ${what} puts the message back in the queue with the reason; it goes out after the turn`, async () => {
      const { log, turn, release } = await holding({ steering });
      await sb.chat.sendPrompt('steer me');
      const id = sb.chat.queueView()!.items[0].id;
      await sb.chat.queueAction(sb.chat.activeTab, id, 'sendNow');
      const [item] = sb.chat.queueView()!.items;
      assert.deepEqual([item.text, item.steering], ['steer me', false]);
      assert.match(item.error ?? '', reason);
      assert.ok(!sb.chat.items.some(i => i.kind === 'user' && i.text === 'steer me'), 'not shown as delivered');
      release();
      await turn;
      await answered(log, 2);
      assert.deepEqual(prompts(log), ['hold', 'steer me']);
    });
  }

  it('a steer that arrives as the turn ends (promptRequired) goes out as the next prompt, first in the queue', async () => {
    const { log, turn, release } = await holding({ steering: { outcome: 'promptRequired' } });
    await sb.chat.sendPrompt('one');
    await sb.chat.sendPrompt('two');
    await sb.chat.queueAction(sb.chat.activeTab, sb.chat.queueView()!.items[1].id, 'sendNow');
    assert.deepEqual(sb.chat.queueView()!.items.map(i => [i.text, i.error]), [['two', undefined], ['one', undefined]]);
    release();
    await turn;
    await answered(log, 3);
    assert.deepEqual(prompts(log), ['hold', 'two', 'one']);
  });
});
