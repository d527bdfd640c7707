import assert from 'node:assert/strict';
import type { ChatStatus, TabInfo } from '../../src/common/protocol';
import { statusLine } from '../../webview/statusLine';

const ready = (agentName = 'Claude', detail = ''): ChatStatus => ({ agentName, status: 'ready', detail });
const tab = (state: TabInfo['state'], agentName = 'Claude', waitingIn?: string): TabInfo => ({ id: 't1', title: 'Fix the tests', agentName, state, waitingIn });
const stateText = (t: TabInfo) => (t.waitingIn ? `waiting for you (in ${t.waitingIn})` : t.state);

describe('the status line (webview/statusLine.ts)', () => {
  it('says no agent runs before one is chosen, and the composer sends', () => {
    const line = statusLine({ agentName: undefined, status: 'stopped', detail: '' }, undefined, stateText);
    assert.deepEqual(line, { text: 'No agent running', className: 'status-stopped', busy: false, cancelsStart: false });
  });

  it("names the running agent and its status, or the host's detail instead", () => {
    assert.equal(statusLine(ready(), tab('idle'), stateText).text, 'Claude · running');
    assert.equal(statusLine({ agentName: 'Claude', status: 'error', detail: '' }, tab('idle'), stateText).text, 'Claude · error');
    assert.equal(statusLine(ready('Claude', 'Signed in as ada'), tab('idle'), stateText).text, 'Signed in as ada');
  });

  it('while the agent starts: its detail, busy, and Stop cancels the start', () => {
    const line = statusLine({ agentName: 'Claude', status: 'starting', detail: 'Starting Claude…' }, tab('idle'), stateText);
    assert.deepEqual(line, { text: 'Starting Claude…', className: 'status-starting', busy: true, cancelsStart: true });
  });

  it("while the conversation's session opens: starting, busy, and Stop stops the turn", () => {
    assert.deepEqual(statusLine(ready(), tab('starting'), stateText),
      { text: 'Starting a session with Claude…', className: 'status-starting', busy: true, cancelsStart: false });
    // The agent is not running yet (the picker was just answered): the host's detail, or a default.
    const stopped: ChatStatus = { agentName: undefined, status: 'stopped', detail: '' };
    assert.equal(statusLine(stopped, tab('starting'), stateText).text, 'Starting the agent…');
    assert.equal(statusLine({ ...stopped, detail: 'Choose an agent' }, tab('starting'), stateText).text, 'Choose an agent');
  });

  it('says whose a conversation is when another agent runs', () => {
    const line = statusLine(ready('Claude'), tab('detached', 'Gemini'), stateText);
    assert.equal(line.text, 'This conversation is with Gemini (not running; Claude is running)');
    assert.equal(line.className, 'status-ready');
    assert.equal(line.busy, false);
  });

  it("is busy while the shown conversation works or waits, and says which helper waits for the user", () => {
    assert.equal(statusLine(ready(), tab('busy'), stateText).busy, true);
    assert.equal(statusLine(ready(), tab('waiting'), stateText).busy, true);
    assert.equal(statusLine(ready(), tab('detached'), stateText).busy, false);
    assert.equal(statusLine(ready(), tab('waiting', 'Claude', 'Reviewer'), stateText).text, 'Claude · running · waiting for you (in Reviewer)');
  });
});
