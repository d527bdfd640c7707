#!/usr/bin/env bash
# Installs, on first use, the real ACP adapters the adapter suite drives (test/integration/
# realAdapters.test.ts): the Claude and Codex adapters at the versions pinned by test/adapters/
# package-lock.json, into a cache folder beside the VS Code server (never a dependency of the
# extension: together they are ~840 MB, native CLIs included). One folder per lockfile content, so a
# version bump installs beside the old one; npm ci, no install scripts (none is needed).
# Usage: test/runner/install-adapters.sh   (prints the adapters' node_modules folder on the last line)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS_DIR="${SWITCHBOARD_TOOLS_DIR:-$ROOT/.vscode-test/server}"
LOCK="$ROOT/test/adapters/package-lock.json"
KEY="$(cat "$ROOT/test/adapters/package.json" "$LOCK" | sha256sum | cut -c1-12)"
DIR="$TOOLS_DIR/adapters/$KEY"
mkdir -p "$TOOLS_DIR/adapters"
# One install at a time (a second run waits here rather than install into the half-built folder).
exec 9>"$TOOLS_DIR/adapters/.install.lock"
flock 9
unset npm_config_user_agent
if [ ! -f "$DIR/.installed" ]; then
  echo "==> installing the Claude and Codex ACP adapters into $DIR (~840 MB, once)" >&2
  rm -rf "$DIR"; mkdir -p "$DIR"
  cp "$ROOT/test/adapters/package.json" "$LOCK" "$DIR/"
  (cd "$DIR" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2)
  touch "$DIR/.installed"
  # Older versions' folders are left to the user (another checkout may still use them).
fi
echo "$DIR/node_modules"
