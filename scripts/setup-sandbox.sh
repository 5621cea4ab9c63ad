#!/usr/bin/env bash
# Installs the OS sandbox agents' commands run in (Linux: bubblewrap, Debian package `bubblewrap`) and
# checks that it can start a sandbox here. Idempotent and non-interactive (works with CI=true and no
# stdin). On macOS the sandbox is the system's `sandbox-exec`; elsewhere there is nothing to install.
#
# A machine or container that forbids the namespaces bubblewrap needs fails the check: the tests that
# prove the sandbox would then fail too, so this exits non-zero with the reason rather than hide it.
# Env: AGENT_TEAM_SKIP_APT=1 to neither check nor install Debian packages (the check still runs).
set -euo pipefail
say() { printf '[sandbox-setup] %s\n' "$*"; }
die() { printf '[sandbox-setup] ERROR: %s\n' "$*" >&2; exit 1; }

case "$(uname -s)" in
  Linux) ;;
  Darwin) [ -x /usr/bin/sandbox-exec ] || die "no /usr/bin/sandbox-exec on this Mac"; say "sandbox-exec present"; exit 0 ;;
  *) say "no OS sandbox on $(uname -s): commands will ask every time (see docs/security.md)"; exit 0 ;;
esac

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
  else return 1
  fi
}

if ! command -v bwrap >/dev/null 2>&1 && [ "${AGENT_TEAM_SKIP_APT:-0}" != 1 ]; then
  say "installing bubblewrap"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q </dev/null >/dev/null || die "apt-get update failed (need root or passwordless sudo)"
  as_root apt-get install -y -q --no-install-recommends bubblewrap </dev/null >/dev/null || die "apt-get install bubblewrap failed"
fi
command -v bwrap >/dev/null 2>&1 || die "bwrap is not on PATH (Debian package 'bubblewrap')"

# The same shape of sandbox the commands get: its own namespaces (network and PID included), dying with us.
if ! output="$(bwrap --ro-bind / / --unshare-all --die-with-parent --proc /proc --dev /dev true 2>&1)"; then
  die "bubblewrap is installed but cannot start a sandbox here: $output"
fi
say "bubblewrap $(bwrap --version | awk '{print $2}') starts sandboxes here"
