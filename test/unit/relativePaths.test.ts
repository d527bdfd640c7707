import assert from 'node:assert/strict';
import { relativizePaths } from '../../src/common/relativePaths';

describe('relativizePaths (titles show workspace-relative paths)', () => {
  it('rewrites paths inside the workspace, in code spans and plain text', () => {
    assert.equal(relativizePaths('Edit `/home/me/proj/src/hello.txt`', ['/home/me/proj']), 'Edit `src/hello.txt`');
    assert.equal(relativizePaths('Move /home/me/proj/a.ts to /home/me/proj/b/a.ts', ['/home/me/proj/']), 'Move a.ts to b/a.ts');
    assert.equal(relativizePaths('Read "/home/me/proj/x y.txt"', ['/home/me/proj']), 'Read "x y.txt"');
  });

  it('leaves paths outside the workspace, look-alike folders and the root itself alone', () => {
    assert.equal(relativizePaths('Read `/etc/hosts`', ['/home/me/proj']), 'Read `/etc/hosts`');
    assert.equal(relativizePaths('Read /home/me/proj2/a.ts', ['/home/me/proj']), 'Read /home/me/proj2/a.ts');
    assert.equal(relativizePaths('List /home/me/proj', ['/home/me/proj']), 'List /home/me/proj');
    assert.equal(relativizePaths('Read /tmp/home/me/proj/a.ts', ['/home/me/proj']), 'Read /tmp/home/me/proj/a.ts');
    assert.equal(relativizePaths('Read ~/home/me/proj/a.ts', ['/home/me/proj']), 'Read ~/home/me/proj/a.ts');
    assert.equal(relativizePaths('anything', []), 'anything');
    assert.equal(relativizePaths('Read /a.ts', ['/']), 'Read /a.ts');
  });

  it('handles Windows paths with either separator and any drive-letter case', () => {
    assert.equal(relativizePaths('Edit `C:\\work\\proj\\src\\a.ts`', ['c:\\work\\proj']), 'Edit `src\\a.ts`');
    assert.equal(relativizePaths('Edit C:/work/proj/src/a.ts', ['C:\\work\\proj']), 'Edit src/a.ts');
  });

  it('names the folder when the workspace has several', () => {
    assert.equal(relativizePaths('Diff /w/api/a.ts and /w/web/b.ts', ['/w/api', '/w/web']), 'Diff api/a.ts and web/b.ts');
    // The longest root wins for nested folders.
    assert.equal(relativizePaths('Read /w/api/sub/x.ts', ['/w/api', '/w/api/sub']), 'Read sub/x.ts');
  });
});
