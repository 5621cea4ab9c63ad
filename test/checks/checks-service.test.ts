/**
 * The service's rules, with small real commands in the real sandbox: `when` skips a check no changed file
 * triggers; a check not allowed is asked about (the commands' approval) and a denial refuses it; no
 * sandbox refuses every check (fail closed) while `off` runs it; an AbortSignal ends a running check at
 * once; a newer call for the same run cancels the older one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ChecksService } from '../../src/engine/checks/checks-service.js';
import type { CheckDefinition } from '../../src/engine/checks/types.js';
import type { CommandApprovalRequest } from '../../src/engine/commands/command-host.js';
import { createCommandHost, type CommandHostOptions } from '../../src/engine/commands/create-command-host.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { makeRepository } from '../support/checks-repositories.js';

const check = (name: string, command: string, extra: Partial<CheckDefinition> = {}): CheckDefinition => ({
  name,
  command,
  source: '.agent-team/checks.yaml',
  sourceKind: 'checks-yaml',
  timeoutSeconds: 60,
  ...extra,
});
const proposals = [{ path: 'src/a.txt', content: 'changed\n' }];

async function service(checks: CheckDefinition[], options: Partial<CommandHostOptions> = {}, trusted = true) {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-team-checks-service-'));
  await makeRepository(root, { 'src/a.txt': 'a\n', 'docs/b.md': 'b\n' });
  const host = createCommandHost({
    workspaceRoot: root,
    taskManager: new TaskManager(),
    allowedPatterns: () => ['true', 'sleep *'],
    howToAllow: 'allow it',
    ...options,
  });
  const checksService = new ChecksService({
    host,
    trusts: () => trusted,
    howToTrust: 'trust it',
    secrets: () => options.secretValues?.() ?? [],
    discover: async () => ({ checks, skipped: [], fromChecksFile: true }),
  });
  onTestFinished(async () => {
    await checksService.dispose();
    await host.dispose();
    await rm(root, { recursive: true, force: true });
  });
  return checksService;
}

describe('ChecksService', () => {
  it('skips a check whose `when` no changed file matches', async () => {
    const checks = await service([check('docs', 'true', { when: ['docs/**'] }), check('code', 'true', { when: ['src/**/*.txt'] })]);
    const verdict = await checks.runOnProposals({ runId: 'r', taskIds: ['t'], proposals });
    expect(verdict.results.map((result) => [result.name, result.status])).toEqual([
      ['docs', 'skipped'],
      ['code', 'passed'],
    ]);
  });

  it('asks about a check no pattern allows, as about a command; a denial refuses it; an untrusted folder asks nothing', async () => {
    const asked: CommandApprovalRequest[] = [];
    const approval = {
      request: async (request: CommandApprovalRequest) => (
        asked.push(request),
        request.command === 'echo yes' ? ('allow' as const) : ('deny' as const)
      ),
    };
    const checks = await service([check('yes', 'echo yes'), check('no', 'echo no')], { approval });
    const verdict = await checks.runOnProposals({ runId: 'r', taskIds: ['t'], proposals });
    expect(verdict.results.map((result) => [result.name, result.status, result.summary])).toEqual([
      ['yes', 'passed', 'passed'],
      ['no', 'refused', 'not run: the user denied `echo no`'],
    ]);
    expect(asked.map((request) => [request.taskId, request.role, request.command, request.isolation.kind])).toEqual([
      ['r', 'checks', 'echo yes', 'sandbox'],
      ['r', 'checks', 'echo no', 'sandbox'],
    ]);
    const untrusted = await service([check('yes', 'echo yes')], { approval }, false);
    asked.length = 0;
    expect((await untrusted.runOnProposals({ runId: 'r', taskIds: ['t'], proposals })).results[0]).toMatchObject({
      status: 'refused',
      summary: 'not run: this folder is not trusted, and checks are its own code (to allow it, trust it)',
    });
    expect(asked).toEqual([]);
  });

  it('without a sandbox runs no check (not even an allowed one); with the sandbox turned off it runs', async () => {
    const detectSandbox = async () => ({ available: false as const, reason: 'no bubblewrap here' });
    const closed = await service([check('true', 'true')], { detectSandbox });
    expect((await closed.runOnProposals({ runId: 'r', taskIds: ['t'], proposals })).results[0]?.summary).toMatch(
      /^not run: there is no OS sandbox here \(no bubblewrap here\), and checks never run outside one/,
    );
    const off = await service([check('true', 'true')], { detectSandbox, sandbox: () => 'off' });
    expect((await off.runOnProposals({ runId: 'r', taskIds: ['t'], proposals })).results[0]?.status).toBe('passed');
  });

  it('keeps the end of the output with secrets redacted: the configured keys and key-shaped values', async () => {
    const key = 'sk-ant-api03-' + 'A1b2C3d4'.repeat(5);
    const checks = await service([check('leaky', `echo "key=${key}"; echo "token: configured-secret-value"`)], {
      allowedPatterns: () => ['echo *'],
      secretValues: () => ['configured-secret-value'],
    });
    const output = (await checks.runOnProposals({ runId: 'r', taskIds: ['t'], proposals })).results[0]?.output ?? '';
    expect(output).toContain('[redacted]');
    expect(output).not.toContain(key);
    expect(output).not.toContain('configured-secret-value');
  });

  it('an AbortSignal ends a running check at once; a newer call for the run cancels the older', async () => {
    const checks = await service([check('slow', 'sleep 300')]);
    const controller = new AbortController();
    const started = Date.now();
    const running = checks.runOnProposals({ runId: 'r', taskIds: ['t'], proposals, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopped by the test')), 1_500);
    await expect(running).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(20_000);
    const older = checks.runOnProposals({ runId: 'r2', taskIds: ['t'], proposals });
    const newer = checks.runOnProposals({
      runId: 'r2',
      taskIds: ['t'],
      proposals: [{ path: 'src/a.txt', content: 'newer\n' }],
      signal: AbortSignal.timeout(1_500),
    });
    await expect(older).rejects.toThrow();
    await expect(newer).rejects.toThrow();
  }, 60_000);
});
