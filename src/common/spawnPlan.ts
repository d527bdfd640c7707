// How to spawn an agent command on each platform. On Windows, `npx`, `pnpm` and most npm-installed
// CLIs are `.cmd` shims that `child_process.spawn` cannot run without a shell ("spawn npx ENOENT",
// a top complaint in other clients). We resolve the command through PATH/PATHEXT ourselves and run
// shims through `cmd.exe /d /s /c` with each argument quoted for cmd, never via `shell: true` with
// unquoted user strings.

export interface SpawnPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** Pass to spawn's `windowsVerbatimArguments` so our cmd quoting is kept as is. */
  readonly verbatim: boolean;
}

export interface PlatformView {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** True when a regular file exists at this absolute path. */
  readonly isFile: (path: string) => boolean;
}

export function planSpawn(command: string, args: readonly string[], host: PlatformView): SpawnPlan {
  if (host.platform !== 'win32') return { file: command, args, verbatim: false };
  const resolved = resolveOnWindows(command, host);
  if (resolved && /\.(cmd|bat)$/i.test(resolved)) {
    const comspec = host.env.ComSpec ?? host.env.COMSPEC ?? 'cmd.exe';
    const line = [resolved, ...args].map(quoteForCmd).join(' ');
    return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], verbatim: true };
  }
  return { file: resolved ?? command, args, verbatim: false };
}

function resolveOnWindows(command: string, host: PlatformView): string | undefined {
  const exts = (host.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const hasExt = /\.[^\\/.]+$/.test(command);
  const candidates = (base: string) => (hasExt ? [base] : exts.map(e => base + e.toLowerCase()));
  if (/[\\/]/.test(command)) return candidates(command).find(host.isFile);
  const dirs = (host.env.PATH ?? host.env.Path ?? '').split(';').filter(Boolean);
  for (const dir of dirs) {
    const base = dir.replace(/[\\/]+$/, '') + '\\' + command;
    const hit = candidates(base).find(host.isFile);
    if (hit) return hit;
  }
  return undefined;
}

/** Quotes one argument for cmd.exe + the C runtime: escape quotes and cmd metacharacters. */
export function quoteForCmd(arg: string): string {
  // CRT rules first: backslashes before a quote are doubled, quotes escaped, wrapped in quotes.
  let quoted = '"' + arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1') + '"';
  // Then cmd.exe: caret-escape its metacharacters so they reach the program literally.
  quoted = quoted.replace(/[()%!^"<>&|]/g, '^$&');
  return quoted;
}
