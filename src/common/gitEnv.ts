// The environment git runs in for Switchboard's own commands (the checkpoints' shadow repository,
// the parallel runs' worktrees). Every GIT_* variable of the window's environment is dropped: they
// name another repository, index, object store or work tree (GIT_DIR, GIT_INDEX_FILE,
// GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_NAMESPACE…), add configuration
// (GIT_CONFIG, GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY_n/VALUE_n: a hooks path, an fsmonitor
// program), pick programs (GIT_EXEC_PATH, GIT_EXTERNAL_DIFF) or change how paths are read
// (GIT_*_PATHSPECS). A window started from a git hook or a terminal inside a repository has some.
// What the command needs is given in `extra`.

/** `env` without any GIT_* variable (in any case: Windows' names are case-insensitive), then `extra`. */
export function gitEnv(env: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> = {}): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) if (!/^GIT_/i.test(k)) out[k] = v;
  return { ...out, ...extra };
}
