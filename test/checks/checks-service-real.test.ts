/**
 * The service on real repositories, in the real sandbox: a TypeScript one (vitest, tsc) and a Python one
 * (pytest). A proposal that breaks a test names it as a new failure; one that fixes a test names it fixed;
 * the baseline runs once for the same workspace content.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ChecksService } from '../../src/engine/checks/checks-service.js';
import { createCommandHost } from '../../src/engine/commands/create-command-host.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { makeRepository, pythonFiles, typescriptFiles } from '../support/checks-repositories.js';

async function serviceOver(files: Record<string, string>, nodeModules: boolean) {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-team-checks-'));
  await makeRepository(root, files, { nodeModules });
  const host = createCommandHost({
    workspaceRoot: root,
    taskManager: new TaskManager(),
    allowedPatterns: () => ['*'],
    howToAllow: 'allow it',
  });
  const service = new ChecksService({ host, trusts: () => true, howToTrust: 'trust it' });
  onTestFinished(async () => {
    await service.dispose();
    await host.dispose();
    await rm(root, { recursive: true, force: true });
  });
  return { root, service };
}

const brokenMath =
  'export function add(a: number, b: number): number {\n  return a - b;\n}\n\nexport function half(a: number): number {\n  const unused: string = 1;\n  return a / 2;\n}\n';

describe('checks on a TypeScript repository', () => {
  it('names the broken test, the new tsc error and the fixed test against the baseline', async () => {
    const { service } = await serviceOver(typescriptFiles, true);
    const verdict = await service.runOnProposals({
      runId: 'r1',
      taskIds: ['t1'],
      proposals: [{ path: 'src/math.ts', content: brokenMath }],
    });
    const vitest = verdict.results.find((result) => result.name === 'vitest');
    const tsc = verdict.results.find((result) => result.name === 'tsc');
    expect(vitest, JSON.stringify(verdict, null, 1)).toMatchObject({
      status: 'failed',
      passed: 1,
      failed: 1,
      newFailures: ['math › adds'],
      fixed: ['math › halves'],
    });
    expect(vitest?.summary).toBe('1 new failure: math › adds; 1 fixed: math › halves');
    expect(tsc).toMatchObject({ status: 'failed', failed: 1 });
    expect(tsc?.summary).toBe('tsc: 1 new error in src/math.ts');
    expect(verdict.hasNewFailures).toBe(true);
  }, 120_000);
});

describe('checks on a Python repository', () => {
  it('names the broken pytest test and the fixed one; the baseline is cached until a file changes', async () => {
    const { root, service } = await serviceOver(pythonFiles, false);
    const proposals = [{ path: 'calc.py', content: 'def add(a, b):\n    return a - b\n\n\ndef double(a):\n    return a * 2\n' }];
    const verdict = await service.runOnProposals({ runId: 'r1', taskIds: ['t1'], proposals });
    expect(verdict.results, JSON.stringify(verdict, null, 1)).toMatchObject([
      {
        name: 'pytest',
        status: 'failed',
        passed: 1,
        failed: 1,
        newFailures: ['tests/test_calc.py::test_add'],
        fixed: ['tests/test_calc.py::test_double'],
      },
    ]);
    expect(verdict.results[0].summary).toBe('1 new failure: tests/test_calc.py::test_add; 1 fixed: tests/test_calc.py::test_double');
    // The same workspace: the baseline is not run again (only the proposals' run takes time).
    const again = await service.runOnProposals({
      runId: 'r2',
      taskIds: ['t2'],
      proposals: [{ path: 'calc.py', content: pythonFiles['calc.py'].replace('a * 3', 'a * 2') }],
    });
    expect(again.results[0]).toMatchObject({ status: 'passed', newFailures: [], fixed: ['tests/test_calc.py::test_double'] });
    // An edit of the workspace makes a new baseline: with the test fixed on disk, nothing is "fixed" by the proposal.
    await writeFile(path.join(root, 'calc.py'), pythonFiles['calc.py'].replace('a * 3', 'a * 2'));
    const third = await service.runOnProposals({
      runId: 'r3',
      taskIds: ['t3'],
      proposals: [{ path: 'calc.py', content: pythonFiles['calc.py'].replace('a * 3', 'a * 2') }],
    });
    expect(third.results[0]).toMatchObject({ status: 'passed', newFailures: [], fixed: [] });
  }, 120_000);
});
