#!/usr/bin/env bash
# Runs test files (default: one) from a copy of the tree under /tmp: the suite must pass from a clone anywhere, and
# /tmp is the place the command sandbox makes private (each sandboxed process gets its own, empty), so a
# path there is where a test's MCP server script once vanished (issue 41). The copy holds the files git
# knows (tracked, and new ones not ignored) with node_modules linked, so the step takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
files=("${@:-test/cli/cli-mcp-roles.test.ts}")
copy=$(mktemp -d /tmp/agent-team-from-tmp.XXXXXX)
trap 'rm -rf "$copy"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$copy" -xf -
else
  tar --exclude=./.git --exclude=./node_modules -cf - . | tar -C "$copy" -xf -
fi
ln -s "$PWD/node_modules" "$copy/node_modules"
printf '[from-tmp] running %s from %s\n' "${files[*]}" "$copy"
cd "$copy"
# `--configLoader runner`: vitest's default loader writes a bundled copy of the config beside it.
npx vitest run --configLoader runner "${files[@]}"
