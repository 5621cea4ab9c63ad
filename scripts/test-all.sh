#!/usr/bin/env bash
# Sets up a fresh machine and runs every test: the one command the README gives and .ci/run calls.
# The fast checks come first, so a type error or a failing unit test shows in a minute or two rather than
# after the slow installs: npm packages; build, typecheck, lint, the formatter's check (Prettier); the command sandbox (bubblewrap); unit and
# integration tests. Then the
# end-to-end tooling (Debian's Chromium and ripgrep, code-server, cached under ~/.cache/agent-team-e2e),
# the search tests again with ripgrep present, package, the benchmarks in quick mode, and the end-to-end
# journeys in a real VS Code. Nothing is skipped: a missing piece is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }
fail() { printf '\n== FAILED: %s\n' "$1" >&2; exit 1; }

step "install npm packages"
npm ci --no-audit --no-fund

step "build, typecheck, lint, formatting"
npm run build
npm run typecheck
npm run lint
npm run format:check

# The command sandbox's tests run agents' commands in bubblewrap: it must be here before they run.
step "install the command sandbox (bubblewrap)"
bash scripts/setup-sandbox.sh

# The checks' tests run a Python repository's pytest suite (in the sandbox).
step "install pytest if missing"
bash scripts/setup-pytest.sh

step "unit and integration tests"
npm test

# The boundary around a hostile repository must hold as root (above, in CI) and as an ordinary user.
step "the boundary's tests again, as an ordinary user"
bash scripts/test-as-user.sh

# The tests pass from a clone anywhere: /tmp, which the sandbox makes private, included (issue 41).
step "a test of the sandbox's MCP servers again, from a copy of the tree under /tmp"
bash scripts/test-from-tmp.sh test/cli/cli-mcp-roles.test.ts

step "install the end-to-end tooling (Debian packages, code-server, Chromium)"
bash test/e2e/tooling/setup.sh

# The ripgrep engine's tests skip when no `rg` is on PATH, as on a fresh machine before the step above;
# with the tooling in place they must run, so run them again and require ripgrep.
step "search tests again, with ripgrep"
command -v rg >/dev/null || fail "ripgrep is not on PATH after the tooling setup (apt package 'ripgrep')"
npx vitest run test/workspace/search-engines.test.ts

step "package"
npm run package

step "benchmarks (quick mode: they still work; targets are not asserted)"
npm run bench:quick

step "end-to-end journeys in a real VS Code"
[ -f test/e2e/run.mjs ] || fail "the end-to-end runner test/e2e/run.mjs is missing"
npm run test:e2e

step "all tests passed"
