#!/usr/bin/env bash
# Sets up a fresh machine and runs every test: the one command the README gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== install"
npm ci --no-audit --no-fund

echo "== build, typecheck, lint"
npm run build
npm run typecheck
npm run lint

echo "== unit and integration tests"
npm test

echo "== package"
npm run package
