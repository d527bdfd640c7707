// An agent that cannot start because a program is missing: which one, and when it is a runtime
// (Node.js behind `npx`, uv behind `uvx`, …) which one and where to get it. The program is known
// from the spawn error (ENOENT for the command itself, or for the `node` an npm shim needs) or from
// what a script's launcher printed before it gave up (`env: node: No such file or directory`).
import { programName } from './commandLookup';

export interface Runtime {
  /** What to install, as its makers name it. */
  readonly name: string;
  /** Where its installation is explained. */
  readonly url: string;
}

const NODE: Runtime = { name: 'Node.js', url: 'https://nodejs.org/en/download' };
const UV: Runtime = { name: 'uv', url: 'https://docs.astral.sh/uv/getting-started/installation/' };
const BUN: Runtime = { name: 'Bun', url: 'https://bun.sh/docs/installation' };
const PNPM: Runtime = { name: 'pnpm', url: 'https://pnpm.io/installation' };

const RUNTIMES: Readonly<Record<string, Runtime>> = {
  node: NODE, npx: NODE, npm: NODE, corepack: NODE,
  uv: UV, uvx: UV,
  bun: BUN, bunx: BUN,
  pnpm: PNPM, pnpx: PNPM,
  yarn: { name: 'Yarn', url: 'https://yarnpkg.com/getting-started/install' },
  pipx: { name: 'pipx', url: 'https://pipx.pypa.io/stable/installation/' },
  python: { name: 'Python', url: 'https://www.python.org/downloads/' },
  python3: { name: 'Python', url: 'https://www.python.org/downloads/' },
  deno: { name: 'Deno', url: 'https://docs.deno.com/runtime/getting_started/installation/' },
};

/** The runtime `command` belongs to, if it is one (`npx` → Node.js, `uvx` → uv). */
export function runtimeOf(command: string): Runtime | undefined {
  const name = programName(command);
  return Object.hasOwn(RUNTIMES, name) ? RUNTIMES[name] : undefined;
}

// What launchers print when the interpreter of a script is missing, on each platform:
//   GNU env:  /usr/bin/env: ‘node’: No such file or directory   (or 'node' in the C locale)
//   BSD env:  env: node: No such file or directory               (macOS)
//   cmd.exe:  'node' is not recognized as an internal or external command,
//   sh/bash:  /bin/sh: 1: node: not found / bash: node: command not found
const MISSING = [
  /\benv: [‘'"]?([^\s‘’'":]+)[’'"]?: No such file or directory/,
  /^[‘'"]([^‘’'"\r\n]+)[’'"] is not recognized as an internal or external command/m,
  /\b(?:sh|bash|zsh|dash)(?:: line \d+|: \d+)?: ([^\s:]+): (?:command )?not found/,
];

/** The program a failed start names as missing in its stderr, if any. */
export function missingProgramInStderr(stderr: string): string | undefined {
  for (const re of MISSING) {
    const m = re.exec(stderr);
    if (m) return m[1];
  }
  return undefined;
}
