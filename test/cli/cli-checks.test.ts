/**
 * The repository's own checks through the real CLI bundle, the mock provider and the real sandbox, on
 * repositories the tests make: a TypeScript one (vitest, tsc) and a Python one (pytest). A proposal that
 * breaks a test shows "1 new failure: <its name>" in the JSON `checks` event, the coordinator's next
 * turn and the trace; one that fixes a test shows it fixed; a hanging check times out and the run ends;
 * `--fix-until-green 2` sends the work back once and the second proposal passes; and a check never runs
 * in an untrusted folder, without approval, or without a sandbox.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { makeRepository, pythonFiles, typescriptFiles } from '../support/checks-repositories.js';
import { bubblewrapReplacedBy, canReplaceBubblewrap, failingBubblewrap, replacingBubblewrapNeedsRoot } from './bubblewrap-replaced.js';
import { agentOf, type CliEvent, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({});
const allowPytest = ['--allow-command', 'python3 -m pytest'];

/** The coordinator delegates once per entry of `proposals` while the checks' notice asks it to; the refactorer writes each. */
function scriptTeam(file: string, proposals: string[], seen: string[] = []): void {
  let delegations = 0;
  world.server.respondWith((request: RecordedRequest) => {
    if (agentOf(request) === 'refactorer') {
      return priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Write', input: { file_path: file, content: proposals[Math.min(delegations - 1, proposals.length - 1)] } }])
        : textTurn('Proposed.');
    }
    if (priorTurns(request) > 0) seen.push(request.lastMessageText);
    const sendBack = priorTurns(request) > 0 && request.lastMessageText.includes('Send the work back') && delegations < proposals.length;
    if (priorTurns(request) === 0 || sendBack) {
      delegations += 1;
      return toolCallTurn([
        {
          name: 'Agent',
          input: { subagent_type: 'refactorer', description: `Change ${file} (${delegations})`, prompt: 'Make the change' },
        },
      ]);
    }
    return textTurn(`Done. ${request.lastMessageText.split('\n')[0]}`);
  });
}

function checksEventOf(events: CliEvent[]): { runId: string; taskIds: string[]; results: Array<Record<string, unknown>> } {
  const event = events.find((each) => each.type === 'checks');
  expect(event, JSON.stringify(events.filter((each) => each.type !== 'text-delta'))).toBeDefined();
  return event as never;
}

async function repository(files: Record<string, string>, nodeModules = false): Promise<void> {
  await makeRepository(world.workspace, files, { nodeModules });
}

describe('agent-team checks', () => {
  it('lists what it found and from where, and what it refused', async () => {
    await repository({
      'package.json': JSON.stringify({ scripts: { test: 'vitest run', lint: 'eslint .', start: 'node .' } }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
      'go.mod': 'module demo\n',
      '.github/workflows/ci.yml':
        'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: pnpm install\n      - run: make lint\n      - run: echo ${{ secrets.TOKEN }}\n',
    });
    const { code, stdout } = await startCli(world.cliPath, ['checks', '--workspace', world.workspace], {}).exited;
    expect(code).toBe(0);
    expect(stdout).toContain('pnpm run test: pnpm run test  (from package.json · timeout 300 s)');
    expect(stdout).toContain('pnpm run lint: pnpm run lint');
    expect(stdout).not.toContain('start');
    expect(stdout).toContain('go test: go test ./...  (from go.mod');
    expect(stdout).toContain('make lint: make lint  (from .github/workflows/ci.yml');
    expect(stdout).toMatch(
      /not used: \.github\/workflows\/ci\.yml \(job test\): step `echo \$\{\{ secrets\.TOKEN \}\}` skipped: it uses an expression/,
    );
    const json = JSON.parse((await startCli(world.cliPath, ['checks', '--json', '--workspace', world.workspace], {}).exited).stdout) as {
      checks: Array<{ name: string }>;
    };
    expect(json.checks.map((check) => check.name)).toEqual(['pnpm run test', 'pnpm run lint', 'go test', 'make lint']);
  });
});

describe('run --checks on a TypeScript repository (vitest, tsc)', () => {
  it('a proposal that breaks a test: "1 new failure: math › adds" in the JSON event, the coordinator\'s turn and the trace', async () => {
    await repository(typescriptFiles, true);
    const seen: string[] = [];
    scriptTeam('src/math.ts', [typescriptFiles['src/math.ts'].replace('a + b', 'a * b')], seen);
    const trace = path.join(world.workspace, '..', `${path.basename(world.workspace)}-trace.md`);
    onTestFinished(() => rm(trace, { force: true }));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const allow = [
      '--allow-command',
      'node node_modules/vitest/vitest.mjs run test',
      '--allow-command',
      'node node_modules/typescript/bin/tsc *',
    ];
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--checks', '--trust', '--trace', trace, '--workspace', world.workspace, ...allow, ...provider.args, 'Change add'],
      provider.env,
    ).exited;
    expect(code, stderr).toBe(0);
    const event = checksEventOf(parseEvents(stdout));
    expect(event.results).toEqual([
      // `halves` fails before and after (the workspace's own bug); `adds` is the proposal's.
      { name: 'vitest', status: 'failed', passed: 0, failed: 2, newFailures: ['math › adds'], fixed: [], durationMs: expect.any(Number) },
      { name: 'tsc', status: 'passed', newFailures: [], fixed: [], durationMs: expect.any(Number) },
    ]);
    expect(seen.join('\n')).toContain('vitest: failed — 1 new failure: math › adds');
    expect(await readFile(trace, 'utf8')).toContain('| vitest | failed | 1 new failure: math › adds |');
  }, 240_000);
});

describe('run --checks on a Python repository (pytest)', () => {
  it('a proposal that fixes a test shows it fixed, one that breaks one shows "1 new failure", in the terminal summary', async () => {
    await repository(pythonFiles);
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2')]);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--checks', '--trust', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Fix double'],
      provider.env,
    ).exited;
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('✓ pytest: 1 fixed: tests/test_calc.py::test_double');
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2').replace('a + b', 'a - b')]);
    const both = await startCli(
      world.cliPath,
      ['run', '--checks', '--trust', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Fix double'],
      provider.env,
    ).exited;
    expect(both.stdout).toContain('✗ pytest: 1 new failure: tests/test_calc.py::test_add; 1 fixed: tests/test_calc.py::test_double');
    expect(both.stdout).toContain('1 with new failures: pytest');
  }, 120_000);

  it('a check that hangs times out (its processes ended) and the run still ends', async () => {
    await repository({
      ...pythonFiles,
      '.agent-team/checks.yaml':
        'checks:\n  - name: hangs\n    command: sleep 600\n    timeoutSeconds: 2\n  - name: pytest\n    command: python3 -m pytest\n',
    });
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2')]);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const started = Date.now();
    const { code, stdout } = await startCli(
      world.cliPath,
      [
        'run',
        '--json',
        '--checks',
        '--trust',
        '--workspace',
        world.workspace,
        '--allow-command',
        'sleep *',
        ...allowPytest,
        ...provider.args,
        'Fix double',
      ],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const results = checksEventOf(parseEvents(stdout)).results;
    expect(results[0]).toMatchObject({ name: 'hangs', status: 'timed-out' });
    expect(results[1]).toMatchObject({ name: 'pytest', status: 'passed', fixed: ['tests/test_calc.py::test_double'] });
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('--fix-until-green 2: the coordinator sends the work back once; the second proposal passes', async () => {
    await repository(pythonFiles);
    const seen: string[] = [];
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a + b', 'a - b'), pythonFiles['calc.py'].replace('a * 3', 'a * 2')], seen);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      [
        'run',
        '--json',
        '--fix-until-green',
        '2',
        '--trust',
        '--workspace',
        world.workspace,
        ...allowPytest,
        ...provider.args,
        'Change add',
      ],
      provider.env,
    ).exited;
    expect(code, stderr).toBe(0);
    const events = parseEvents(stdout);
    const refactorers = events.filter((event) => event.type === 'task-start' && event.role === 'refactorer');
    expect(refactorers).toHaveLength(2);
    expect(seen[0]).toContain('1 new failure: tests/test_calc.py::test_add');
    expect(seen[0]).toContain('Fix until green, round 1 of 2');
    expect(seen[1]).toContain('pytest: passed');
    expect(checksEventOf(events).results).toEqual([
      {
        name: 'pytest',
        status: 'passed',
        passed: 2,
        failed: 0,
        newFailures: [],
        fixed: ['tests/test_calc.py::test_double'],
        durationMs: expect.any(Number),
      },
    ]);
  }, 180_000);
});

describe('a check never runs', () => {
  it("in an untrusted folder, or without the user's approval", async () => {
    await repository(pythonFiles);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2')]);
    const untrusted = await startCli(
      world.cliPath,
      ['run', '--json', '--checks', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Fix'],
      provider.env,
    ).exited;
    expect(checksEventOf(parseEvents(untrusted.stdout)).results).toEqual([
      { name: 'pytest', status: 'refused', newFailures: [], fixed: [], durationMs: 0 },
    ]);
    expect(untrusted.stderr).toContain("check 'pytest'");
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2')]);
    const unapproved = await startCli(
      world.cliPath,
      ['run', '--checks', '--trust', '--workspace', world.workspace, ...provider.args, 'Fix'],
      provider.env,
    ).exited;
    expect(unapproved.stdout).toContain('⊘ pytest: not run: `python3 -m pytest` is not among the commands the user allows.');
    expect(untrusted.stdout.includes('passed') || unapproved.stdout.includes('passed')).toBe(false);
  }, 120_000);

  it.skipIf(!canReplaceBubblewrap)(
    `without a sandbox unless --no-sandbox (${replacingBubblewrapNeedsRoot})`,
    async () => {
      await repository(pythonFiles);
      const replaced = await bubblewrapReplacedBy(failingBubblewrap);
      onTestFinished(() => replaced.dispose());
      const temporary = await mkdtemp(path.join(tmpdir(), 'agent-team-checks-nosandbox-'));
      onTestFinished(() => rm(temporary, { recursive: true, force: true }));
      const provider = providerEnvironment('anthropic', world.server.baseUrl);
      scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2')]);
      const refused = await startCli(
        world.cliPath,
        ['run', '--json', '--checks', '--trust', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Fix'],
        { ...provider.env, TMPDIR: temporary },
        { wrapper: replaced.wrapper },
      ).exited;
      expect(checksEventOf(parseEvents(refused.stdout)).results).toEqual([
        { name: 'pytest', status: 'refused', newFailures: [], fixed: [], durationMs: 0 },
      ]);
      scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a * 3', 'a * 2')]);
      const unsandboxed = await startCli(
        world.cliPath,
        ['run', '--json', '--checks', '--trust', '--no-sandbox', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Fix'],
        { ...provider.env, TMPDIR: temporary },
        { wrapper: replaced.wrapper },
      ).exited;
      expect(checksEventOf(parseEvents(unsandboxed.stdout)).results[0]).toMatchObject({
        name: 'pytest',
        status: 'passed',
        fixed: ['tests/test_calc.py::test_double'],
      });
    },
    120_000,
  );
});

describe('agent-team apply after run --checks', () => {
  it('refuses proposals with new failures without --force, says them, and puts the verdict in the pull request body', async () => {
    await repository(pythonFiles);
    const broken = pythonFiles['calc.py'].replace('a + b', 'a - b');
    scriptTeam('calc.py', [broken]);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const run = await startCli(
      world.cliPath,
      ['run', '--json', '--checks', '--trust', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Change add'],
      provider.env,
    ).exited;
    const { runId } = checksEventOf(parseEvents(run.stdout));
    const refused = await startCli(world.cliPath, ['apply', runId, '--workspace', world.workspace], {}).exited;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `The checks found new failures in run ${runId}'s proposals: pytest: 1 new failure: tests/test_calc.py::test_add.`,
    );
    expect(refused.stderr).toContain('to apply anyway run again with --force');
    expect(await readFile(path.join(world.workspace, 'calc.py'), 'utf8')).toBe(pythonFiles['calc.py']);
    // A remote, so the pull request's commands (and its body file) are printed: gh is not on this PATH.
    execFileSync('git', ['remote', 'add', 'origin', 'https://example.invalid/team.git'], { cwd: world.workspace });
    const branch = await startCli(
      world.cliPath,
      ['apply', runId, '--branch', 'agent-team/sub', '--force', '--workspace', world.workspace],
      { PATH: '/usr/bin:/bin' },
    ).exited;
    const bodyFile = /--body-file (\S+pull-request\.md)/.exec(branch.stdout)?.[1];
    expect(bodyFile, branch.stdout + branch.stderr).toBeDefined();
    const body = await readFile(bodyFile!, 'utf8');
    expect(body).toMatch(/^## Checks\n\n⚠️ Checks: 1 with new failures/);
    expect(body).toContain('| pytest | failed | 1 new failure: tests/test_calc.py::test_add |');
    const forced = await startCli(world.cliPath, ['apply', runId, '--force', '--workspace', world.workspace], {}).exited;
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('Applying anyway (--force).');
    expect(await readFile(path.join(world.workspace, 'calc.py'), 'utf8')).toBe(broken);
  }, 120_000);

  it('run --apply writes nothing when the checks find new failures, and says how to apply anyway', async () => {
    await repository(pythonFiles);
    scriptTeam('calc.py', [pythonFiles['calc.py'].replace('a + b', 'a - b')]);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--apply', '--checks', '--trust', '--workspace', world.workspace, ...allowPytest, ...provider.args, 'Change add'],
      provider.env,
    ).exited;
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /Not applied: the checks found new failures\. Look at them, then apply anyway with agent-team apply \S+ --force\./,
    );
    expect(await readFile(path.join(world.workspace, 'calc.py'), 'utf8')).toBe(pythonFiles['calc.py']);
  }, 120_000);
});
