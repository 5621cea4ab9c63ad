#!/usr/bin/env bash
# Runs the product: Agent Team inside a real VS Code (code-server) that you open in your browser.
#
#   npm start                       # a small sample project (copied to ~/.cache/agent-team-run/sample-workspace)
#   npm start -- /path/to/folder    # your own folder
#
# On a fresh machine it installs what it needs (npm ci when node_modules is missing; Debian's Chromium
# and code-server through test/e2e/tooling/setup.sh, cached in ~/.cache/agent-team-e2e), builds and
# packages the extension, installs it into a VS Code whose settings and extensions persist in
# ~/.cache/agent-team-run, opens the folder (trusted) on 127.0.0.1, prints the address and runs until
# Ctrl-C.
#
# Choose a model in VS Code: the "Get Started with Agent Team" walkthrough, or "Agent Team: Set API Key"
# (kept in VS Code's secret storage). The environment passes through to the extension, so these work too:
#   ANTHROPIC_API_KEY, OPENAI_API_KEY     API keys (used when no key was set in VS Code)
#   ANTHROPIC_BASE_URL, OPENAI_BASE_URL   a proxy or an OpenAI-compatible server
# Settings of this script:
#   AGENT_TEAM_PORT     port on 127.0.0.1 (default 0: a free port, printed)
#   AGENT_TEAM_RUN_DIR  where VS Code's user data, extensions and log live (default ~/.cache/agent-team-run)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
run_dir="${AGENT_TEAM_RUN_DIR:-${HOME:-/root}/.cache/agent-team-run}"
port="${AGENT_TEAM_PORT:-0}"
say() { printf '[start] %s\n' "$*"; }
die() { printf '[start] ERROR: %s\n' "$*" >&2; exit 1; }

folder="${1:-}"
if [ -n "$folder" ]; then
  [ -d "$folder" ] || die "no such folder: $folder"
  folder="$(cd "$folder" && pwd)"
fi

# Quiet steps: their output is shown only when they fail.
quietly() {
  local label="$1"
  shift
  local output
  if ! output="$("$@" 2>&1)"; then
    printf '%s\n' "$output" >&2
    die "$label failed"
  fi
}

if [ ! -d node_modules ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi

say "building and packaging the extension (npm run package)"
quietly "npm run package" npm run package
[ -f dist/agent-team.vsix ] || die "npm run package wrote no dist/agent-team.vsix"

say "installing the command sandbox if missing (scripts/setup-sandbox.sh)"
quietly "scripts/setup-sandbox.sh" bash scripts/setup-sandbox.sh
say "installing VS Code (code-server) and Chromium if missing (test/e2e/tooling/setup.sh)"
quietly "test/e2e/tooling/setup.sh" bash test/e2e/tooling/setup.sh
# shellcheck source=../test/e2e/tooling/env.sh
. test/e2e/tooling/env.sh

mkdir -p "$run_dir/user-data/User" "$run_dir/extensions"
if [ -z "$folder" ]; then
  folder="$run_dir/sample-workspace"
  if [ ! -d "$folder" ]; then
    cp -R test/e2e/fixtures/workspace "$folder"
    say "created the sample project $folder"
  fi
fi

# First run: quiet, offline defaults. Later runs keep whatever you changed in VS Code.
settings="$run_dir/user-data/User/settings.json"
if [ ! -f "$settings" ]; then
  cat >"$settings" <<'JSON'
{
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.enableExperiments": false,
  "workbench.startupEditor": "none",
  "chat.disableAIFeatures": true
}
JSON
fi

# code-server reads its own config file, else it writes ~/.config/code-server/config.yaml with a password.
config="$run_dir/config.yaml"
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$port" >"$config"
code_server=("$AGENT_TEAM_E2E_NODE" "$AGENT_TEAM_E2E_CODE_SERVER" --config "$config"
  --user-data-dir "$run_dir/user-data" --extensions-dir "$run_dir/extensions")
# Variables that would make code-server bind elsewhere, ask for a password, or forward to another VS Code.
scrub=(-u PORT -u PASSWORD -u HASHED_PASSWORD -u CODE_SERVER_CONFIG -u VSCODE_IPC_HOOK_CLI -u VSCODE_OPTIONS
  -u VSCODE_PROXY_URI -u ELECTRON_RUN_AS_NODE -u NODE_OPTIONS)

say "installing the extension into $run_dir/extensions"
quietly "code-server --install-extension" env "${scrub[@]}" "${code_server[@]}" --install-extension "$repo/dist/agent-team.vsix" --force

log="$run_dir/code-server.log"
: >"$log"
# Its own process group (setsid), so stopping this script stops code-server and everything it started.
setsid env "${scrub[@]}" "${code_server[@]}" --bind-addr "127.0.0.1:$port" --auth none \
  --disable-telemetry --disable-update-check --disable-getting-started-override \
  --disable-workspace-trust "$folder" >>"$log" 2>&1 &
server_pid=$!
stop_server() {
  trap - INT TERM EXIT
  if kill -0 "$server_pid" 2>/dev/null; then
    say "stopping VS Code"
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
}
trap 'stop_server; exit 130' INT
trap 'stop_server; exit 143' TERM
trap stop_server EXIT

# code-server prints "HTTP server listening on http://127.0.0.1:<port>/" once it is bound.
url=""
for _ in $(seq 1 600); do
  url="$(sed -n 's/.*server listening on \(http:\/\/[^ ]*\).*/\1/p' "$log" | head -1)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; die "code-server exited before it was ready"; }
  sleep 0.1
done
[ -n "$url" ] || { tail -n 40 "$log" >&2; die "code-server did not report its address within 60 s"; }
url="${url%/}/"
encoded_folder="$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$folder")"

say "folder: $folder (trusted)"
say "log:    $log"
say "Agent Team is running at ${url}?folder=${encoded_folder}"
say "open it in your browser; the Agent Team icon is in the activity bar. Ctrl-C stops it."
wait "$server_pid"
