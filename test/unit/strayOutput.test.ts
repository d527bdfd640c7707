import assert from 'node:assert/strict';
import { StrayLines } from '../../src/common/strayOutput';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('StrayLines (what on an agent\'s stdout is not JSON-RPC)', () => {
  it('passes messages and blank lines, reports other lines', () => {
    const s = new StrayLines();
    assert.deepEqual(s.push(bytes('{"jsonrpc":"2.0","method":"x"}\n\n  \r\nDebugger attached.\r\n[1,2]\n')), ['Debugger attached.']);
  });

  it('follows lines across chunks, in both directions', () => {
    const s = new StrayLines();
    assert.deepEqual(s.push(bytes('{"a":')), []);
    assert.deepEqual(s.push(bytes('1}\nStarting ser')), []);
    assert.deepEqual(s.push(bytes('ver on port 3000\n{"b":2}\n')), ['Starting server on port 3000']);
    assert.deepEqual(s.push(bytes('  ')), []);
    assert.deepEqual(s.push(bytes('x\n')), ['x']);
  });

  it('cuts a long stray line to 200 characters', () => {
    const s = new StrayLines();
    const [line] = s.push(bytes('y'.repeat(100_000) + '\n'));
    assert.equal(line, 'y'.repeat(200) + '…');
  });

  it('a huge message line costs no copy and reports nothing', () => {
    const s = new StrayLines();
    assert.deepEqual(s.push(bytes('{"text":"' + 'z'.repeat(1_000_000) + '"}\n')), []);
  });
});
