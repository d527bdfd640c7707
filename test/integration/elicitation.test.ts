// Questions from the agent (elicitation/create, form and url modes) in a real VS Code with the
// scripted agent: every field type, refused schemas and URLs, invalid answers that send nothing,
// accept / decline / cancel, elicitation/complete, and Stop / agent exit cancelling open forms.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { agentEvents, api, dump, gate, lastOf, tmpDir, useScriptedAgent, waitFor } from './helpers';

type Question = Extract<Item, { kind: 'question' }>;
const openQuestion = (sb: SwitchboardApi) => waitFor('an open question card', () => {
  const q = lastOf(sb.chat.items, 'question');
  return q && !q.question.outcome ? q : undefined;
});
const results = (log: string) => agentEvents(log).filter(e => e.event === 'result' && e.type === 'elicit');

const SCHEMA = {
  type: 'object', title: 'Release', description: 'Tell me how to release',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 10, default: 'v1' },
    email: { type: 'string', title: 'Email', format: 'email' },
    day: { type: 'string', format: 'date' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    channel: { type: 'string', enum: ['beta', 'stable'], default: 'beta' },
    region: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }] },
    targets: { type: 'array', items: { type: 'string', enum: ['linux', 'mac', 'win'] }, minItems: 1, maxItems: 2 },
    copies: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    notify: { type: 'boolean', default: false },
  },
  required: ['name', 'email', 'targets', 'copies'],
};

describe('Elicitation (questions from the agent)', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  it('advertises form and url elicitation, renders every field type, and sends typed content on Submit', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [{ type: 'elicit', message: 'Release settings?', requestedSchema: SCHEMA }] }] });
    const turn = sb.chat.sendPrompt('release');
    const card = await openQuestion(sb);
    const init = agentEvents(log).find(e => e.event === 'initialize') as { params: { clientCapabilities: { elicitation: unknown } } };
    assert.deepEqual(init.params.clientCapabilities.elicitation, { form: {}, url: {} });
    assert.equal(card.question.message, 'Release settings?');
    assert.deepEqual(card.question.form!.fields.map(f => `${f.name}:${f.kind}${f.required ? '*' : ''}`),
      ['name:text*', 'email:text*', 'day:text', 'code:text', 'channel:select', 'region:select', 'targets:multiselect*', 'copies:number*', 'ratio:number', 'notify:boolean']);
    assert.deepEqual(card.question.values, { name: 'v1', email: '', day: '', code: '', channel: 'beta', region: '', targets: [], copies: '2', ratio: '', notify: false });
    assert.equal(sb.chat.tabInfos.find(t => t.id === sb.chat.activeTab)?.state, 'waiting');
    await sb.chat.answerQuestion(card.id, 'accept', {
      ...card.question.values, email: 'me@example.com', day: '2026-07-01', code: 'ABC', region: 'eu', targets: ['linux', 'win'], copies: '3', ratio: '0.25', notify: true,
    });
    await turn;
    assert.deepEqual(results(log)[0].result, {
      action: 'accept',
      content: { name: 'v1', email: 'me@example.com', day: '2026-07-01', code: 'ABC', channel: 'beta', region: 'eu', targets: ['linux', 'win'], copies: 3, ratio: 0.25, notify: true },
    });
    assert.equal((lastOf(sb.chat.items, 'question') as Question).question.outcome, 'accepted');
  });

  it('an invalid answer shows a message per field and sends nothing; the corrected one is sent', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [{ type: 'elicit', requestedSchema: SCHEMA }] }] });
    const turn = sb.chat.sendPrompt('release');
    const card = await openQuestion(sb);
    const bad = { ...card.question.values, name: 'x', email: 'not-mail', day: '2026-02-30', code: 'abc', targets: ['linux', 'mac', 'win'], copies: '9', ratio: 'half' };
    await sb.chat.answerQuestion(card.id, 'accept', bad);
    const shown = sb.chat.items.find(i => i.id === card.id) as Question;
    assert.deepEqual(shown.question.errors, { ratio: 'Enter a number.' }, 'type errors first');
    await sb.chat.answerQuestion(card.id, 'accept', { ...bad, ratio: '2' });
    assert.deepEqual((sb.chat.items.find(i => i.id === card.id) as Question).question.errors, {
      name: 'Enter at least 2 characters.', email: 'Enter an email address.', day: 'Enter a date (YYYY-MM-DD).', code: 'Does not have the expected form.',
      targets: 'Choose at most 2.', copies: 'Must be at most 5.', ratio: 'Must be at most 1.',
    });
    assert.deepEqual((sb.chat.items.find(i => i.id === card.id) as Question).question.values, { ...bad, ratio: '2' }, 'what the user typed stays');
    await sb.chat.answerQuestion(card.id, 'accept', { ...card.question.values, email: '' });
    assert.equal((sb.chat.items.find(i => i.id === card.id) as Question).question.errors?.email, 'Required.');
    assert.equal(results(log).length, 0, 'nothing reached the agent');
    await sb.chat.answerQuestion(card.id, 'accept', { ...card.question.values, email: 'a@b.co', targets: ['mac'] });
    await turn;
    assert.deepEqual(results(log).map(e => e.result), [{ action: 'accept', content: { name: 'v1', email: 'a@b.co', channel: 'beta', targets: ['mac'], copies: 2, notify: false } }]);
  });

  it('a schema it cannot render gets a clear -32602 and shows no card', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'elicit', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } } },
      { type: 'elicit', requestedSchema: { type: 'object', properties: { n: { type: 'string', pattern: '([' } } } },
      { type: 'elicit', requestedSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 1 } } } },
    ] }] });
    await sb.chat.sendPrompt('ask');
    const errors = results(log).map(e => e.error as { code: number; message: string });
    assert.deepEqual(errors.map(e => e.code), [-32602, -32602, -32602]);
    assert.match(errors[0].message, /Unsupported elicitation schema: property "address": type "object" is not supported/);
    assert.match(errors[1].message, /pattern is not a valid regular expression/);
    assert.match(errors[2].message, /minimum 5 is greater than maximum 1/);
    assert.equal(lastOf(sb.chat.items, 'question'), undefined, dump(sb.chat.items));
  });

  it('Decline and Cancel answer as the protocol says', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'elicit', message: 'first', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      { type: 'elicit', message: 'second', requestedSchema: { type: 'object', properties: {} } },
    ] }] });
    const turn = sb.chat.sendPrompt('ask');
    await sb.chat.answerQuestion((await openQuestion(sb)).id, 'decline');
    const second = await waitFor('second card', () => { const q = lastOf(sb.chat.items, 'question'); return q?.question.message === 'second' ? q : undefined; });
    await sb.chat.answerQuestion(second.id, 'cancel');
    await turn;
    assert.deepEqual(results(log).map(e => e.result), [{ action: 'decline' }, { action: 'cancel' }]);
    assert.deepEqual(sb.chat.items.filter((i): i is Question => i.kind === 'question').map(q => q.question.outcome), ['declined', 'cancelled']);
  });

  it('url mode shows the host, opens only after the user says so, and elicitation/complete closes it', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'elicit', mode: 'url', message: 'Sign in to the registry', url: 'javascript:alert(1)', elicitationId: 'bad' },
      { type: 'elicit', mode: 'url', message: 'Sign in to the registry', url: 'http://127.0.0.1:9/login?state=x', elicitationId: 'login' },
      { type: 'elicitComplete', elicitationId: 'login' },
      { type: 'text', text: 'signed in' },
    ] }] });
    const turn = sb.chat.sendPrompt('sign in');
    const card = await openQuestion(sb);
    const refused = results(log)[0].error as { code: number; message: string };
    assert.equal(refused.code, -32602);
    assert.match(refused.message, /only http and https URLs are opened, not javascript:/);
    assert.deepEqual(card.question.url, { href: 'http://127.0.0.1:9/login?state=x', host: '127.0.0.1:9', secure: false });
    await new Promise(r => setTimeout(r, 300));
    assert.equal(results(log).length, 1, 'no answer before the user chose');
    await sb.chat.answerQuestion(card.id, 'accept');
    await turn;
    assert.deepEqual(results(log)[1].result, { action: 'accept' });
    assert.equal((sb.chat.items.find(i => i.id === card.id) as Question).question.outcome, 'completed');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text.includes('signed in'), true);
  });

  it('elicitation/complete for a URL the user has not answered closes the card as cancelled-by-completion', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'elicit', mode: 'url', url: 'https://example.com/device', elicitationId: 'dev', detach: true },
      { type: 'sleep', ms: 300 },
      { type: 'elicitComplete', elicitationId: 'dev' },
      { type: 'sleep', ms: 300 },
    ] }] });
    await sb.chat.sendPrompt('device login');
    assert.equal((lastOf(sb.chat.items, 'question') as Question).question.outcome, 'completed');
    await waitFor('the answer', () => results(log)[0]);
    assert.deepEqual(results(log)[0].result, { action: 'cancel' });
  });

  it('Stop cancels an open form; the turn ends cancelled', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [{ type: 'elicit', requestedSchema: SCHEMA }, { type: 'sleep', ms: 5000 }] }] });
    const turn = sb.chat.sendPrompt('ask');
    await openQuestion(sb);
    await vscode.commands.executeCommand('switchboard.cancelTurn');
    await turn;
    assert.equal((lastOf(sb.chat.items, 'question') as Question).question.outcome, 'cancelled');
    assert.equal(lastOf(sb.chat.items, 'turnEnd')?.stopReason, 'cancelled');
    assert.deepEqual(results(log)[0].result, { action: 'cancel' });
  });

  it("the agent's exit cancels an open form and the tab stops waiting", async () => {
    const crash = gate('crash');
    await useScriptedAgent({ turns: [{ steps: [{ type: 'elicit', requestedSchema: SCHEMA, detach: true }, { type: 'waitFile', path: crash.path }, { type: 'crash', message: 'gone' }] }] });
    const turn = sb.chat.sendPrompt('ask');
    await openQuestion(sb);
    assert.equal(sb.chat.waitingTabs.length, 1);
    crash.open();
    await turn;
    await waitFor('card cancelled', () => (lastOf(sb.chat.items, 'question') as Question).question.outcome === 'cancelled');
    assert.equal(sb.chat.waitingTabs.length, 0);
    assert.match(lastOf(sb.chat.items, 'error')?.message ?? '', /exited|crashed|code 1/);
  });

  // ---- issue 24, point 8: questions go where they belong -------------------------------------------

  const questionsIn = (tab: { items: readonly Item[] }) => tab.items.filter((i): i is Question => i.kind === 'question');
  const where = () => sb.chat.sessions.map(t => `${t.id} "${t.info.title}": ${questionsIn(t).map(q => q.question.message).join(', ')}`).join('; ');

  it('a question tied to a request of one conversation lands in it, not in the conversation shown', async () => {
    const release = path.join(tmpDir, `release-${Date.now()}`);
    const { log } = await useScriptedAgent({ turns: [
      { match: 'hold', steps: [{ type: 'awaitFile', path: release }, { type: 'elicit', requestScoped: 'prompt', message: 'Asked about the held prompt' }] },
      { steps: [{ type: 'text', text: 'hello' }] },
    ] });
    const tabA = sb.chat.active;
    const held = sb.chat.sendPrompt('hold please');
    await waitFor('the held turn', () => agentEvents(log).some(e => e.event === 'prompt'));
    await sb.chat.newConversation();
    const tabB = sb.chat.active;
    assert.notEqual(tabB.id, tabA.id);
    assert.equal(await sb.chat.sendPrompt('hi'), 'sent');
    fs.writeFileSync(release, '');
    const card = await waitFor(() => `the question in the conversation whose prompt it is about (${where()})`, () => questionsIn(tabA)[0]);
    assert.equal(card.question.message, 'Asked about the held prompt');
    assert.equal(questionsIn(tabB).length, 0, `not in the conversation shown: ${where()}`);
    await sb.chat.answerQuestion(card.id, 'decline', undefined, tabA.id);
    await held;
    assert.deepEqual(results(log)[0].result, { action: 'decline' });
  });

  it("a question with no session is shown as the agent's own, in no conversation it did not come from", async () => {
    const { log } = await useScriptedAgent({ turns: [
      { match: 'ask', steps: [{ type: 'elicit', requestScoped: true, message: 'Which account?' }] },
      { steps: [{ type: 'text', text: 'hello' }] },
    ] }, 'Agent Q');
    assert.equal(await sb.chat.sendPrompt('hi'), 'sent');
    const tabA = sb.chat.active;
    await sb.chat.newConversation();
    const tabB = sb.chat.active;
    const asked = sb.chat.sendPrompt('ask');
    const owner = await waitFor(() => `a conversation showing the question (${where()})`, () => sb.chat.sessions.find(t => questionsIn(t).some(q => q.question.message === 'Which account?')));
    assert.ok(owner.id !== tabA.id && owner.id !== tabB.id, `not in a conversation: ${where()}`);
    assert.match(owner.info.title, /Agent Q/, 'the agent is named');
    assert.ok(owner.items.some(i => i.kind === 'notice' && /Agent Q/.test(i.text)), dump(owner.items));
    assert.equal(sb.chat.activeTab, tabB.id, 'the shown conversation stays shown');
    const card = questionsIn(owner).find(q => q.question.message === 'Which account?')!;
    await sb.chat.answerQuestion(card.id, 'accept', {}, owner.id);
    await asked;
    assert.deepEqual(results(log)[0].result, { action: 'accept', content: {} });
  });

  it("a question the agent asks while it starts (about initialize, before any session) is the agent's own", async () => {
    const { log } = await useScriptedAgent({ elicitOnInitialize: 'Which workspace profile?', turns: [{ steps: [{ type: 'text', text: 'hello' }] }] }, 'Agent S');
    const shown = sb.chat.active;
    const sent = sb.chat.sendPrompt('hi');
    const owner = await waitFor(() => `a tab showing the start-up question (${where()})`,
      () => sb.chat.sessions.find(t => questionsIn(t).some(q => q.question.message === 'Which workspace profile?')));
    assert.notEqual(owner.id, shown.id, 'not in the conversation that started the agent');
    assert.match(owner.info.title, /Agent S/);
    await sb.chat.answerQuestion(questionsIn(owner)[0].id, 'decline', undefined, owner.id);
    assert.equal(await sent, 'sent');
    assert.deepEqual(agentEvents(log).find(e => e.step === 'initialize')?.result, { action: 'decline' });
  });
});
