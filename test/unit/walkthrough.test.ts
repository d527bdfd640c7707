import assert from 'node:assert/strict';
import fs from 'node:fs';
import { checkListing } from '../../scripts/vsixRules.mjs';
import { WALKTHROUGH_ID, WALKTHROUGH_STEPS, walkthroughContextKey } from '../../src/common/walkthroughSteps';

type Step = { id: string; title: string; description: string; media: { markdown?: string }; completionEvents: string[] };

describe('first-run walkthrough (manifest)', () => {
  const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const walkthrough = manifest.contributes.walkthroughs.find((w: { id: string }) => w.id === WALKTHROUGH_ID);
  const steps: Step[] = walkthrough?.steps ?? [];

  it('has the four steps in order, each completed by a context key the extension sets', () => {
    assert.deepEqual(steps.map(s => s.id), ['chooseAgent', 'signIn', 'firstPrompt', 'reviewChange']);
    const keys = steps.map(s => s.completionEvents.filter(e => e.startsWith('onContext:')).map(e => e.slice('onContext:'.length)));
    assert.deepEqual(keys, WALKTHROUGH_STEPS.map(step => [walkthroughContextKey(step)]));
  });

  it('every step button runs a command the extension contributes or VS Code generates for its views', () => {
    const nls = JSON.parse(fs.readFileSync('package.nls.json', 'utf8'));
    const own = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
    for (const view of Object.values(manifest.contributes.views).flat() as { id: string }[]) own.add(`${view.id}.focus`);
    for (const step of steps) {
      const text: string = nls[step.description.replace(/^%|%$/g, '')];
      const commands = [...text.matchAll(/\(command:([\w.]+)\)/g)].map(m => m[1]);
      assert.ok(commands.length > 0, `${step.id} has a button`);
      for (const c of commands) assert.ok(own.has(c), `${step.id}: ${c} is contributed`);
    }
  });

  it('its media exist and ship in the VSIX', () => {
    const media = steps.map(s => s.media.markdown!);
    for (const m of media) assert.ok(fs.existsSync(m), `${m} exists`);
    assert.deepEqual(checkListing(media).filter(p => !p.endsWith(': missing')), []);
  });
});
