// Sign-in wherever the agent asks for it: an auth_required (-32000) answer to session/new, load,
// resume or prompt shows the agent's auth methods in the conversation; each kind of method (agent,
// terminal login, API key in an env var) signs in and the failed request is retried by itself.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, dump, lastOf, tmpDir, useScriptedAgent, waitFor } from './helpers';

const AGENT_METHOD = { id: 'browser', name: 'Sign in with the browser' };
const TERMINAL_METHOD = { id: 'login', name: 'Log in', type: 'terminal', args: ['--terminal-login'] };
const KEY_METHOD = { id: 'key', name: 'API key', type: 'env_var', varName: 'SCRIPTED_API_KEY' };
const KEY = 'sk-test-0123456789';

describe('Sign-in', () => {
  let sb: SwitchboardApi;
  let n = 0;

  before(async () => { sb = await api(); });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  afterEach(async () => {
    await sb.chat.signOut();
    await sb.chat.stop();
  });

  /** Answers the sign-in card of the shown conversation with the option whose name starts with `name`. */
  async function chooseSignIn(name: string): Promise<void> {
    const card = await waitFor('the sign-in card', () => {
      const p = lastOf(sb.chat.items, 'permission');
      return p && /asks you to sign in/.test(p.permission.title) && !p.permission.outcome ? p : undefined;
    });
    const option = card.permission.options.find(o => o.name.startsWith(name));
    assert.ok(option, `option "${name}" in ${JSON.stringify(card.permission.options)}`);
    sb.chat.answerPermission(card.id, option.optionId);
  }

  function script(extra: object) {
    const marker = path.join(tmpDir, `signed-in-${++n}`);
    return {
      requireAuth: true,
      authMethods: [AGENT_METHOD, TERMINAL_METHOD, KEY_METHOD],
      auth: { markerFile: marker, envVar: 'SCRIPTED_API_KEY', envValue: KEY },
      agentCapabilities: { auth: { logout: {} } },
      turns: [{ steps: [{ type: 'text', text: 'signed-in answer' }] }],
      ...extra,
    };
  }

  /** A conversation bound to session `sess-1` of an agent that did not ask to sign in, then stopped. */
  async function earlierSession(caps: object): Promise<void> {
    await useScriptedAgent({ agentCapabilities: caps });
    await sb.chat.sendPrompt('first');
    assert.equal(sb.chat.sessionId, 'sess-1');
    await sb.chat.stop();
  }

  it('session/new: the agent method authenticates, then the session opens and the prompt is answered', async () => {
    const { log } = await useScriptedAgent(script({}));
    const sent = sb.chat.sendPrompt('hi');
    await chooseSignIn(AGENT_METHOD.name);
    assert.equal(await sent, 'sent', dump(sb.chat.items));
    const events = agentEvents(log);
    assert.deepEqual(events.find(e => e.event === 'authenticate')!.params, { methodId: 'browser' });
    assert.equal(events.filter(e => e.event === 'session/new').length, 2);
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'signed-in answer', dump(sb.chat.items));
  });

  it('session/prompt: a login that expired mid-conversation signs in and the same prompt is sent again, shown once', async () => {
    const { log } = await useScriptedAgent(script({ authOn: ['session/prompt'] }));
    const sent = sb.chat.sendPrompt('hi');
    await chooseSignIn(AGENT_METHOD.name);
    await sent;
    const prompts = agentEvents(log).filter(e => e.event === 'prompt');
    assert.equal(prompts.length, 2);
    assert.deepEqual(prompts[1].params, prompts[0].params);
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'signed-in answer', dump(sb.chat.items));
    assert.equal(sb.chat.items.filter(i => i.kind === 'user').length, 1, dump(sb.chat.items));
    assert.equal(lastOf(sb.chat.items, 'error'), undefined, dump(sb.chat.items));
  });

  it('session/load: signs in and loads the earlier session again (not a new one)', async () => {
    await earlierSession({ loadSession: true });
    const { log } = await useScriptedAgent(script({ authOn: ['session/load'], agentCapabilities: { loadSession: true } }));
    const sent = sb.chat.sendPrompt('again');
    await chooseSignIn(AGENT_METHOD.name);
    await sent;
    const events = agentEvents(log);
    assert.deepEqual(events.filter(e => e.event === 'session/load').map(e => (e.params as { sessionId: string }).sessionId), ['sess-1', 'sess-1']);
    assert.equal(events.some(e => e.event === 'session/new'), false);
    assert.equal(sb.chat.sessionId, 'sess-1');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'signed-in answer', dump(sb.chat.items));
  });

  it('session/resume: signs in and resumes the earlier session', async () => {
    await earlierSession({ sessionCapabilities: { resume: {} } });
    const { log } = await useScriptedAgent(script({ authOn: ['session/resume'], agentCapabilities: { sessionCapabilities: { resume: {} } } }));
    const sent = sb.chat.sendPrompt('again');
    await chooseSignIn(AGENT_METHOD.name);
    await sent;
    const events = agentEvents(log);
    assert.equal(events.filter(e => e.event === 'session/resume').length, 2);
    assert.equal(sb.chat.sessionId, 'sess-1');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'signed-in answer', dump(sb.chat.items));
  });

  it('terminal login: runs the agent\'s login in a terminal, and when it exits 0 restarts the agent and retries', async () => {
    const s = script({});
    const { log } = await useScriptedAgent(s);
    const sent = sb.chat.sendPrompt('hi');
    await chooseSignIn(TERMINAL_METHOD.name);
    const terminal = await waitFor('the login terminal', () => vscode.window.terminals.find(t => t.name.endsWith(TERMINAL_METHOD.name)));
    assert.ok(terminal);
    assert.equal(await sent, 'sent', dump(sb.chat.items));
    const events = agentEvents(log);
    assert.ok(events.some(e => e.event === 'terminal-login'), 'the login ran');
    assert.ok(fs.existsSync(s.auth.markerFile), 'the login wrote its marker');
    assert.equal(events.filter(e => e.event === 'start').length, 2, 'the agent was restarted');
    assert.equal(events.some(e => e.event === 'authenticate'), false, 'never authenticate for a terminal method');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'signed-in answer', dump(sb.chat.items));
  });

  it('a terminal login that fails leaves the prompt unanswered and says so', async () => {
    const { log } = await useScriptedAgent(script({ auth: { loginExitCode: 3 } }));
    const sent = sb.chat.sendPrompt('hi');
    await chooseSignIn(TERMINAL_METHOD.name);
    assert.equal(await sent, 'notSent');
    assert.match(lastOf(sb.chat.items, 'notice')?.text ?? '', /did not succeed/, dump(sb.chat.items));
    assert.equal(agentEvents(log).filter(e => e.event === 'start').length, 1);
  });

  it('API key: asked in a password box, kept in secret storage, passed as env on this and every later start, never sent over ACP', async () => {
    const { log } = await useScriptedAgent(script({
      authOn: ['session/prompt'],
      // An agent that prints its key when it crashes: the chat shows its last words, redacted.
      turns: [{ match: 'crash', steps: [{ type: 'stderr', text: `using key ${KEY}\n` }, { type: 'crash' }] }, { steps: [{ type: 'text', text: 'signed-in answer' }] }],
    }));
    const sent = sb.chat.sendPrompt('hi');
    await chooseSignIn(KEY_METHOD.name);
    const box = await waitFor('the key box', () => sb.signIn.input);
    assert.equal(box.password, true);
    box.value = KEY;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await sent;
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'signed-in answer', dump(sb.chat.items));
    // A later start gets the key without asking.
    await sb.chat.stop();
    await sb.chat.sendPrompt('later');
    const events = agentEvents(log);
    assert.equal(events.filter(e => e.event === 'auth-state' && e.signedIn).length, 2, JSON.stringify(events.filter(e => e.event === 'auth-state')));
    assert.equal(fs.readFileSync(log, 'utf8').includes(KEY), false, 'the key never crossed the ACP connection');
    await sb.chat.sendPrompt('crash now');
    const crash = await waitFor('the crash report', () => lastOf(sb.chat.items, 'error'));
    assert.match(crash.details ?? '', /using key \*\*\*/, dump(sb.chat.items));
    assert.equal(JSON.stringify(sb.chat.items).includes(KEY), false, 'the key is not in the conversation');
  });

  it('Sign out calls logout and deletes the stored key: the next start asks again', async () => {
    const { log } = await useScriptedAgent(script({}));
    let sent = sb.chat.sendPrompt('hi');
    await chooseSignIn(KEY_METHOD.name);
    const box = await waitFor('the key box', () => sb.signIn.input);
    box.value = KEY;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(await sent, 'sent', dump(sb.chat.items));
    await vscode.commands.executeCommand('switchboard.signOut');
    assert.ok(agentEvents(log).some(e => e.event === 'logout'), 'logout sent');
    assert.equal(sb.chat.agentPid, undefined, 'the agent that had the key in its environment was stopped');
    await sb.chat.newConversation();
    sent = sb.chat.sendPrompt('after sign-out');
    await chooseSignIn('Not now');
    assert.equal(await sent, 'notSent');
    const states = agentEvents(log).filter(e => e.event === 'auth-state').map(e => e.signedIn);
    assert.deepEqual(states, [false, true, false]);
  });
});
