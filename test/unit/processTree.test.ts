// What belongs to a command or an agent (selectTree): tagged processes, their children, the groups
// and sessions they made; never the spared host, its ancestors, its group or its session.
import assert from 'node:assert/strict';
import { ProcEntry, selectTree, TreeQuery } from '../../src/common/processTree';

const p = (pid: number, ppid: number, pgrp: number, session: number, tag?: string, state = 'S'): ProcEntry => ({ pid, ppid, pgrp, session, state, tag });

// init 1; the editor 10 (session 10); the extension host 20 in the editor's session and group 20.
const base = [p(1, 0, 1, 1), p(10, 1, 10, 10), p(20, 10, 20, 10), p(21, 20, 20, 10)];
const query = (q: Partial<TreeQuery>): TreeQuery => ({ tags: [], groups: [], spare: [20], ...q });
const check = (table: ProcEntry[], q: Partial<TreeQuery>, expected: number[]) => assert.deepEqual(selectTree(table, query(q)), expected);

describe('selectTree (what belongs to a command or an agent)', () => {
  it('a command in its own group, with a child that detached into a new session and was re-parented', () => {
    // 30: the command (group 30, the host's session, as the launcher starts it); 31 its child;
    // 40: setsid + double fork: a new session, parent init, the tag kept.
    const table = [...base, p(30, 20, 30, 10, 'h.1'), p(31, 30, 30, 10, 'h.1'), p(40, 1, 40, 40, 'h.1'), p(41, 40, 40, 40, 'h.1')];
    check(table, { tags: ['h.1'], groups: [30] }, [30, 31, 40, 41]);
  });

  it("another command's tag, and the host's group and session, are never taken", () => {
    const table = [...base, p(30, 20, 30, 10, 'h.1'), p(50, 20, 50, 10, 'h.2'), p(51, 1, 51, 51, 'h.2')];
    check(table, { tags: ['h.1'], groups: [30] }, [30]);
  });

  it('a child that cleared its environment is found through its parent, its group or its session', () => {
    const table = [...base,
      p(40, 1, 40, 40, 'h.1'), // a daemon in its own session
      p(42, 40, 40, 40), // env -i, still its child
      p(43, 1, 43, 40), // env -i, re-parented, but still in the daemon's session
      p(44, 1, 40, 99), // in the daemon's group
      p(45, 1, 45, 45), // env -i, re-parented, its own session: out of reach (the documented limit)
    ];
    check(table, { tags: ['h.1'] }, [40, 42, 43, 44]);
  });

  it('a tag prefix ending in "." takes every tag of that host, and no other host', () => {
    const table = [...base, p(30, 20, 30, 10, 'h.1'), p(50, 1, 50, 50, 'h.22'), p(60, 1, 60, 60, 'hx.1'), p(61, 1, 61, 61, 'other.1')];
    check(table, { tags: ['h.'] }, [30, 50]);
  });

  it('never the spared process, its ancestors, nor a tagged host (a host started from a tagged terminal)', () => {
    const table = [p(1, 0, 1, 1), p(10, 1, 10, 10, 'old.3'), p(20, 10, 20, 10, 'old.3'), p(30, 20, 30, 10, 'h.1'), p(70, 1, 70, 70, 'old.3')];
    check(table, { tags: ['old.3'] }, [70]);
  });

  it('a dead host: its group and session given as spared are not followed', () => {
    // The watchdog's view: the host is gone; a command kept the host's session and group 20 lingers.
    const table = [p(1, 0, 1, 1), p(10, 1, 10, 10), p(21, 1, 20, 10), p(30, 1, 30, 10, 'h.1'), p(99, 1, 99, 99)];
    check(table, { tags: ['h.'], spare: [99], spareGroups: [20], spareSessions: [10] }, [30]);
  });

  it('zombies are left out, and a group of the query is taken without any tag', () => {
    const table = [...base, p(30, 20, 30, 10, undefined, 'Z'), p(31, 1, 30, 10), p(32, 1, 30, 10, 'h.1', 'Z')];
    check(table, { tags: ['h.1'], groups: [30] }, [31]);
  });

  it('no tag and no group: nothing (pid 0 and init are never followed)', () => {
    check([...base, p(30, 1, 1, 1)], { groups: [1, 0] }, []);
  });
});
