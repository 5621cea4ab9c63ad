/**
 * B19, the checks' verdict on a proposal (issue 40): on a repository of 2,000 files whose tests take about
 * 2 s (`node --test`: a test reads every source file, then waits 2 s as a slow suite would), the time from
 * `runOnProposals` to the verdict (baseline cached: the workspace is unchanged since the first verdict),
 * against running the same check by hand in a copy: `cp -a` of the repository, the proposal written, the
 * command run (no sandbox). Rounds interleaved, so a busy machine slows both alike. Target: the verdict
 * within 1.5× the hand-made run (ratio of the medians), judged on the upper end of its 95 % bootstrap interval
 * over the paired rounds (bench/support/confidence-interval.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChecksService } from '../src/engine/checks/checks-service.js';
import { createCommandHost } from '../src/engine/commands/create-command-host.js';
import { detectSandbox } from '../src/engine/commands/sandbox/sandbox-availability.js';
import { TaskManager } from '../src/engine/tasks/task-manager.js';
import { describeInterval, ratioOfMediansInterval } from './support/confidence-interval.js';
import { median, now } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const command = 'node --test test/';
const slowTest = `const { test } = require('node:test');
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { value } = require('../src/module0/file0.js');
test('reads every module', async () => {
  let files = 0;
  for (const folder of readdirSync('src')) for (const file of readdirSync(join('src', folder))) { readFileSync(join('src', folder, file)); files += 1; }
  if (files < 2000) throw new Error('files missing: ' + files);
  await new Promise((resolve) => setTimeout(resolve, 2000));
});
test('value is zero', () => { if (value !== 0) throw new Error('value is ' + value); });
`;

async function makeRepository(root: string): Promise<void> {
  for (let folder = 0; folder < 20; folder++) {
    const directory = path.join(root, 'src', `module${folder}`);
    await mkdir(directory, { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, file) =>
        writeFile(path.join(directory, `file${file}.js`), `exports.value = ${folder * 100 + file};\n`),
      ),
    );
  }
  await mkdir(path.join(root, 'test'));
  await writeFile(path.join(root, 'test', 'slow.test.js'), slowTest);
  await mkdir(path.join(root, '.agent-team'));
  await writeFile(path.join(root, '.agent-team', 'checks.yaml'), `checks:\n  - name: node tests\n    command: ${command}\n`);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the repository');
}

/** The proposal of round `round`: a module's file changed (the test of `value` fails on odd rounds). */
const proposalOf = (round: number) => [{ path: 'src/module0/file0.js', content: `exports.value = ${round % 2};\n` }];

/** By hand: copy the repository, write the proposal, run the command; milliseconds. */
function byHand(root: string, scratch: string, round: number): number {
  const started = now();
  const copy = path.join(scratch, `copy-${round}`);
  execFileSync('cp', ['-a', root, copy]);
  for (const file of proposalOf(round)) execFileSync('sh', ['-c', 'cat > "$0"', path.join(copy, file.path)], { input: file.content });
  spawnSync('sh', ['-c', command], { cwd: copy, stdio: 'ignore' });
  const elapsed = now() - started;
  execFileSync('rm', ['-rf', copy]);
  return elapsed;
}

export const checksVerdict: Benchmark = {
  id: 'B19',
  title: 'Checks verdict on a proposal',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const availability = await detectSandbox();
    if (!availability.available) return { measurements: [], skipped: `no sandbox here: ${availability.reason}` };
    // Nine pairs: enough for the ratio's interval to mean something, under a minute at about 5 s a pair.
    const rounds = context.quick ? 1 : 9;
    const base = await mkdtemp(path.join(tmpdir(), 'agent-team-bench-checks-'));
    const root = path.join(base, 'repository');
    const scratch = path.join(base, 'by-hand');
    await Promise.all([mkdir(root), mkdir(scratch)]);
    const host = createCommandHost({
      workspaceRoot: root,
      taskManager: new TaskManager(),
      allowedPatterns: () => ['*'],
      howToAllow: 'bench',
      scratchDirectory: path.join(base, 'scratch'),
    });
    const service = new ChecksService({ host, trusts: () => true, howToTrust: 'bench' });
    try {
      await makeRepository(root);
      context.log('B19: first verdict (baseline made and cached)');
      const first = now();
      const warm = await service.runOnProposals({ runId: 'warm', taskIds: ['warm'], proposals: proposalOf(0) });
      const firstVerdict = now() - first;
      if (warm.results[0]?.status !== 'passed') throw new Error(`the check did not pass: ${JSON.stringify(warm.results[0])}`);
      const verdicts: number[] = [];
      const hand: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        context.log(`B19: round ${round} of ${rounds}`);
        const measureVerdict = async () => {
          const started = now();
          const verdict = await service.runOnProposals({ runId: `round-${round}`, taskIds: ['t'], proposals: proposalOf(round) });
          verdicts.push(now() - started);
          const expected = round % 2 === 1 ? ['value is zero'] : [];
          if (JSON.stringify(verdict.results[0]?.newFailures) !== JSON.stringify(expected))
            throw new Error(`unexpected verdict: ${JSON.stringify(verdict.results[0])}`);
        };
        if (round % 2 === 0) {
          await measureVerdict();
          hand.push(byHand(root, scratch, round));
        } else {
          hand.push(byHand(root, scratch, round));
          await measureVerdict();
        }
      }
      const ratio = ratioOfMediansInterval(verdicts, hand);
      return {
        measurements: [
          { name: 'verdict (baseline cached), median', value: median(verdicts), unit: 'ms' },
          { name: 'same check by hand in a copy, median', value: median(hand), unit: 'ms' },
          {
            name: 'verdict / by hand',
            value: ratio.high,
            unit: '×',
            target: 1.5,
            display: describeInterval(ratio, '×', { digits: 2 }),
            note: 'judged on the upper end',
          },
          { name: 'first verdict (baseline run too)', value: firstVerdict, unit: 'ms' },
        ],
        details: { files: 2003, verdicts, hand, ratio, copyKind: host.copies.overlayUnavailable ?? 'overlay where available' },
      };
    } finally {
      await service.dispose();
      await host.dispose();
      await rm(base, { recursive: true, force: true });
    }
  },
};
