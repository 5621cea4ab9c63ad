#!/usr/bin/env node
// The extension's journeys in desktop VS Code (Electron), for machines that can download VS Code.
// NOT run in CI (CI may depend on no download) and its dependency is not installed by default:
//
//   npm i -D @vscode/test-electron        # once, on your machine
//   node test/e2e/electron/run-electron.mjs [--version 1.100.0|stable|insiders]
//
// It builds the extension (npm run build), bundles suite.mjs (with the mock provider) to CommonJS,
// copies the fixture workspace to a temporary folder, and has @vscode/test-electron download VS Code
// into .vscode-test/ and run the suite in its extension host with the repo as the development extension.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureWorkspace, repoRoot } from '../lib/paths.mjs';

const argv = process.argv.slice(2);
const version = argv.includes('--version') ? argv[argv.indexOf('--version') + 1] : 'stable';

let testElectron;
try {
  testElectron = await import('@vscode/test-electron');
} catch {
  console.error(
    '@vscode/test-electron is not installed. Install it once with:\n  npm i -D @vscode/test-electron\n(then run this script again; CI never does).',
  );
  process.exit(2);
}

const build = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const scratch = mkdtempSync(join(tmpdir(), 'agent-team-electron-'));
try {
  const esbuild = await import('esbuild');
  const suite = join(scratch, 'suite.cjs');
  await esbuild.build({
    entryPoints: [join(repoRoot, 'test', 'e2e', 'electron', 'suite.mjs')],
    outfile: suite,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const workspace = join(scratch, 'workspace');
  cpSync(fixtureWorkspace, workspace, { recursive: true });
  const exitCode = await testElectron.runTests({
    version,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: suite,
    extensionTestsEnv: { OPENAI_API_KEY: 'sk-e2e-not-a-real-key' },
    launchArgs: [workspace, '--disable-extensions', '--user-data-dir', join(scratch, 'user-data'), '--disable-workspace-trust'],
  });
  console.log(`electron e2e: exit ${exitCode}`);
  process.exitCode = exitCode;
} catch (error) {
  console.error(error?.stack ?? error);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
