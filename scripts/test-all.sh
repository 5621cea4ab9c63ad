#!/usr/bin/env bash
# Sets up a fresh machine and runs every test: the one command the README gives and .ci/run calls.
# Installs what the tests need (npm packages; Debian's Chromium and ripgrep; code-server, cached under
# ~/.cache/agent-team-e2e), then: build, typecheck, lint, unit and integration tests, package, the
# benchmarks in quick mode, and the end-to-end journeys in a real VS Code.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }

step "install npm packages"
npm ci --no-audit --no-fund

step "install the end-to-end tooling (Debian packages, code-server, Chromium)"
bash test/e2e/tooling/setup.sh

step "build, typecheck, lint"
npm run build
npm run typecheck
npm run lint

step "unit and integration tests"
npm test

step "package"
npm run package

step "benchmarks (quick mode: they still work; targets are not asserted)"
npm run bench:quick

if [ -f test/e2e/run.mjs ]; then
  step "end-to-end journeys in a real VS Code"
  npm run test:e2e
fi

step "all tests passed"
