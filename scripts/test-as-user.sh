#!/usr/bin/env bash
# Runs the tests of the boundary around a hostile repository again as an ordinary user. The main suite runs
# as whoever runs it (root in CI, in devcontainers and in most Docker images, where bubblewrap must drop
# its capabilities and map the command to another uid); these files run again as a user made for the
# purpose, where bubblewrap runs unprivileged. Both must hold: docs/security.md says so for each.
#
# As an ordinary user already, the main suite was that run: nothing more to do. As root: creates the user
# `agent-team-test` (once), and runs the files below as it with `setpriv`, in a clean environment. A tree the
# user cannot read (a clone under /root) is copied first, without .git, to a folder under /opt: not under
# /tmp, /var/tmp or a home, which the sandbox hides (a test's MCP server script there would be out of reach).
set -euo pipefail
cd "$(dirname "$0")/.."

# The tests of a hostile repository's ways in (each finding of the boundary's review through the CLI), and
# the sandbox's own from inside it.
files=(
  test/cli/cli-sandbox.test.ts
  test/cli/cli-sandbox-root.test.ts
  test/cli/cli-bash.test.ts
  test/cli/cli-hooks.test.ts
  test/cli/cli-hook-network.test.ts
  test/cli/cli-trust.test.ts
  test/cli/cli-mcp-roles.test.ts
  test/cli/cli-mcp-sandbox.test.ts
  test/cli/cli-mcp-tmp-server.test.ts
  test/cli/cli-mcp-configured.test.ts
  test/cli/cli-instructions.test.ts
  test/cli/cli-secret-encodings.test.ts
  test/cli/cli-planted-runs.test.ts
  test/cli/cli-apply-branch.test.ts
  test/cli/cli-apply-branch-safety.test.ts
  test/cli/cli-web-fetch.test.ts
  test/a2a/serve-a2a-loops.test.ts
  test/commands/sandbox-hardening.test.ts
  test/commands/nested-binds.test.ts
  test/commands/scratch-directory.test.ts
  test/process
)

say() { printf '[as-user] %s\n' "$*"; }
if [ "$(id -u)" != 0 ]; then
  say "already an ordinary user ($(id -un)): the main suite ran as one"
  exit 0
fi
command -v setpriv >/dev/null || { say "ERROR: setpriv (util-linux) is missing" >&2; exit 1; }

user=agent-team-test
if ! id -u "$user" >/dev/null 2>&1; then
  useradd --create-home --shell /bin/bash "$user" || { say "ERROR: could not create the user $user" >&2; exit 1; }
fi
home=$(getent passwd "$user" | cut -d: -f6)
as_user() { setpriv --reuid="$user" --regid="$user" --init-groups env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="$PATH" LANG=C.UTF-8 CI="${CI:-}" npm_config_update_notifier=false "$@"; }

tree=$PWD
copy=""
if ! as_user test -r "$tree/package.json" -a -x "$tree/node_modules/.bin/vitest"; then
  mkdir -p /opt
  copy=$(mktemp -d /opt/agent-team-as-user.XXXXXX)
  trap 'rm -rf "$copy"' EXIT
  say "the tree is not readable to $user: copying it to $copy"
  tar -C "$tree" --exclude=./.git -cf - . | tar -C "$copy" -xf -
  chmod 755 "$copy"
  tree=$copy
fi

existing=()
for file in "${files[@]}"; do [ -e "$tree/$file" ] && existing+=("$file"); done
say "running ${#existing[@]} test files as $user (uid $(id -u "$user"))"
cd "$tree"
# `--configLoader runner`: vitest's default loader writes a bundled copy of the config beside it.
as_user npx vitest run --configLoader runner "${existing[@]}"
