#!/usr/bin/env bash
# Installs pytest where `python3 -m pytest` does not run, for the checks' tests (issue 40), which make a
# small Python repository and run its pytest suite in the sandbox. Debian's package (`python3-pytest`) is
# used: PyPI may not be reachable from CI. Idempotent and non-interactive; does nothing where pytest runs.
# Env: AGENT_TEAM_SKIP_APT=1 to install nothing (the check still runs).
set -euo pipefail
say() { printf '[pytest-setup] %s\n' "$*"; }
die() { printf '[pytest-setup] ERROR: %s\n' "$*" >&2; exit 1; }

if python3 -m pytest --version >/dev/null 2>&1; then say "$(python3 -m pytest --version 2>&1) runs here"; exit 0; fi
[ "${AGENT_TEAM_SKIP_APT:-0}" = 1 ] && die "python3 -m pytest does not run here, and AGENT_TEAM_SKIP_APT=1 forbids installing it (Debian package 'python3-pytest')"
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
  else return 1
  fi
}
say "installing python3-pytest"
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -q </dev/null >/dev/null || die "apt-get update failed (need root or passwordless sudo)"
as_root apt-get install -y -q --no-install-recommends python3-pytest </dev/null >/dev/null || die "apt-get install python3-pytest failed"
python3 -m pytest --version >/dev/null 2>&1 || die "python3-pytest is installed but python3 -m pytest does not run (is python3 another Python than Debian's?)"
say "$(python3 -m pytest --version 2>&1) runs here"
