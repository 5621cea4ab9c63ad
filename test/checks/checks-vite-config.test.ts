/**
 * vitest with a config file, in the real sandbox: vite bundles the config into `node_modules/.vite-temp`,
 * so a check whose dependency folder could not be written would fail on every real vitest project. With
 * `node_modules` a real folder of the workspace, as an install makes it, the command's view of it is
 * copy-on-write: the check runs, names the new failure, and nothing lands in the user's folder.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { ChecksService } from '../../src/engine/checks/checks-service.js';
import { createCommandHost } from '../../src/engine/commands/create-command-host.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { makeRepository, sharedNodeModules, typescriptFiles } from '../support/checks-repositories.js';

it('runs vitest with a vitest.config.ts: the new failure is named and the workspace\u2019s node_modules is not written', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-team-checks-config-'));
  await makeRepository(root, { ...typescriptFiles, 'vitest.config.ts': "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: {} });\n" });
  // A real folder, as npm makes it; its packages linked from the shared install (no network here).
  await mkdir(path.join(root, 'node_modules'));
  for (const name of ['vitest', 'typescript', 'vite', '@vitest']) await symlink(path.join(sharedNodeModules, name), path.join(root, 'node_modules', name));
  const host = createCommandHost({ workspaceRoot: root, taskManager: new TaskManager(), allowedPatterns: () => ['*'], howToAllow: 'allow it' });
  const service = new ChecksService({ host, trusts: () => true, howToTrust: 'trust it' });
  onTestFinished(async () => {
    await service.dispose();
    await host.dispose();
    await rm(root, { recursive: true, force: true });
  });
  const verdict = await service.runOnProposals({ runId: 'r1', taskIds: ['t1'], proposals: [{ path: 'src/math.ts', content: typescriptFiles['src/math.ts'].replace('a + b', 'a - b') }] });
  const vitest = verdict.results.find((result) => result.name === 'vitest');
  expect(vitest, JSON.stringify(verdict, null, 1)).toMatchObject({ status: 'failed', newFailures: ['math › adds'] });
  expect(existsSync(path.join(root, 'node_modules', '.vite-temp'))).toBe(false);
}, 120_000);
