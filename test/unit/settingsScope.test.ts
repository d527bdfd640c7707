// A repository's .vscode/settings.json must not loosen a safety setting (README, safety table): every
// setting it may set is listed here, and any other has the "application" or "machine" scope.
import assert from 'node:assert/strict';
import fs from 'node:fs';

interface Setting { scope?: string }

describe('settings a repository may set', () => {
  it('are only the harmless ones: the rest are read from user settings only', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
    const config = ([] as { properties: Record<string, Setting> }[]).concat(pkg.contributes.configuration);
    const props: Record<string, Setting> = Object.assign({}, ...config.map(c => c.properties));
    const workspaceSettable = Object.entries(props).filter(([, s]) => s.scope !== 'application' && s.scope !== 'machine').map(([k]) => k).sort();
    assert.deepEqual(workspaceSettable, [
      'switchboard.agentIdleMinutes',
      'switchboard.fs.saveAfterWrite',
      'switchboard.initializeTimeoutSeconds',
      'switchboard.inspector.maxMegabytes',
      'switchboard.inspector.maxMessages',
      'switchboard.inspector.recordAlways',
      'switchboard.terminal.defaultOutputByteLimit',
      'switchboard.terminal.keepFinished',
      'switchboard.terminal.reveal',
    ]);
  });
});
