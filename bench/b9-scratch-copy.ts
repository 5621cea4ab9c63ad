/**
 * B9, the `Bash` tool's scratch copy: how long until a tree's first command can run, and what every later
 * command of the tree adds around the command itself, for both kinds of copy in the same run (rounds
 * interleaved, so a busy machine slows both alike): the overlay view (the workspace itself, read-only,
 * under an upper layer per command, mounted in a private mount namespace) and the git-made copy
 * (the fallback where the kernel allows no overlay).
 *
 * The repository: 20,000 committed files (200 folders of 100), a working tree with 20 modified files and
 * 10 untracked ones, and an ignored `node_modules`. "First command": a new tree's copy made and brought to
 * a task's view with 3 proposals (overlay: the mask of ignored files built; git: a checkout of HEAD
 * borrowing the repository's objects, the working tree's changes copied, dependencies linked), after the
 * warm-up a task's grant of `Bash` starts (ScratchCopies.warmUp: the overlay copy made ahead, a model turn
 * before the first command; its own time shown apart), and the overlay's without one (the copy made on the
 * command's path), interleaved. "Later
 * command": the same tree's copy taken again, brought to another task's view, the command run through it
 * (`echo … > report.txt`, as a test run writing a report would; the overlay mounts its view first), and
 * asked afterwards what the command changed; the same command run in a plain folder is subtracted (paired,
 * same round): what `Bash` adds besides the command. CPU time (this process and its ended children) is
 * shown beside each figure. A second later command edits a tracked file in a subfolder (the overlay then
 * looks in the view for files gone under a folder removed and made again), informational.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandCopy } from '../src/engine/commands/command-copy.js';
import { overlaySupport } from '../src/engine/commands/overlay/overlay-support.js';
import { ScratchCopies } from '../src/engine/commands/scratch-copies.js';
import { detectSandbox, type SandboxAvailability } from '../src/engine/commands/sandbox/sandbox-availability.js';
import { asCost, describeInterval, medianInterval } from './support/confidence-interval.js';
import { timeCommand } from './support/command-runs.js';
import { childrenCpuMs } from './support/run-cost.js';
import { median, now, percentile } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

async function makeRepository(root: string, folders: number): Promise<void> {
  for (let folder = 0; folder < folders; folder++) {
    const directory = path.join(root, 'src', `module${folder}`);
    await mkdir(directory, { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, file) =>
        writeFile(path.join(directory, `file${file}.ts`), `export const value${file} = ${folder * 100 + file};\n`.repeat(8)),
      ),
    );
  }
  await writeFile(path.join(root, '.gitignore'), 'node_modules/\n');
  await mkdir(path.join(root, 'node_modules', 'dependency'), { recursive: true });
  await writeFile(path.join(root, 'node_modules', 'dependency', 'index.js'), 'module.exports = 1;\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the repository');
  for (let file = 0; file < 20; file++)
    await writeFile(path.join(root, 'src', 'module0', `file${file}.ts`), `export const changed = ${file};\n`);
  for (let file = 0; file < 10; file++) await writeFile(path.join(root, `untracked${file}.ts`), `export const added = ${file};\n`);
}

const proposalsOf = (round: number) =>
  [0, 1, 2].map((index) => ({
    path: `src/module${(round + index) % 5}/file${50 + index}.ts`,
    content: `export const proposed = ${round};\n`,
  }));

type Kind = 'overlay' | 'git';

/** Wall and CPU milliseconds of one measured step. */
interface Sample {
  wall: number;
  cpu: number;
}

/** CPU milliseconds so far: this process's and its ended children's. */
function cpuSoFar(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + (childrenCpuMs() ?? 0);
}

async function measured<T>(step: () => Promise<T>): Promise<{ value: T; sample: Sample }> {
  const [wall, cpu] = [now(), cpuSoFar()];
  const value = await step();
  return { value, sample: { wall: now() - wall, cpu: cpuSoFar() - cpu } };
}

interface LaterRound {
  copies: ScratchCopies;
  rootId: string;
  round: number;
  command: string;
  expected: string;
  workspaceRoot: string;
  plainFolder: string;
  sandbox?: Extract<SandboxAvailability, { available: true }>;
}

/** One later command through the copy, less the same command in a plain folder: what the copy adds. */
async function laterCommand(options: LaterRound): Promise<Sample> {
  const { sample: total } = await measured(async () => {
    const copy: CommandCopy = await options.copies.acquire(options.rootId);
    await copy.prepare(proposalsOf(options.round + 1));
    await timeCommand(options.command, { cwd: copy.cwd, workspaceRoot: options.workspaceRoot, copy: copy.sandboxPaths }, options.sandbox, {
      copy,
    });
    const changed = await copy.changedFiles();
    options.copies.release(options.rootId, copy);
    if (!changed.includes(options.expected)) throw new Error(`the command's file was not reported (${copy.kind}): ${changed.join(', ')}`);
  });
  const { sample: plain } = await measured(() =>
    timeCommand(
      options.command.replace(/> \S+$/, '> /dev/null'),
      { cwd: options.plainFolder, workspaceRoot: options.workspaceRoot, copy: { writable: [options.plainFolder], readOnly: [] } },
      undefined,
    ),
  );
  return { wall: total.wall - plain.wall, cpu: total.cpu - plain.cpu };
}

function figure(name: string, samples: readonly Sample[], target: number | undefined, note: string): Measurement {
  if (samples.length === 0) return { name, value: null, unit: 'ms', note: 'no overlay here' };
  const walls = samples.map((sample) => sample.wall);
  const cpu = median(samples.map((sample) => sample.cpu));
  return {
    name,
    value: median(walls),
    unit: 'ms',
    ...(target !== undefined ? { target } : {}),
    display: `p50 ${median(walls).toFixed(1)} / p95 ${percentile(walls, 0.95).toFixed(1)} ms, CPU p50 ${cpu.toFixed(1)} ms`,
    note,
  };
}

/**
 * An "added" figure: a difference of two noisy times, paired in each round. Its p50 with the 95 % interval
 * (bench/support/confidence-interval.ts), shown from 0 (a cost cannot be negative), judged on the upper end.
 */
function addedFigure(name: string, samples: readonly Sample[], target: number | undefined, note: string): Measurement {
  if (samples.length === 0) return { name, value: null, unit: 'ms', note: 'no overlay here' };
  const interval = asCost(medianInterval(samples.map((sample) => sample.wall)));
  const walls = samples.map((sample) => sample.wall);
  const cpu = median(samples.map((sample) => sample.cpu));
  return {
    name,
    value: interval.high,
    unit: 'ms',
    ...(target !== undefined ? { target } : {}),
    display: `${describeInterval(interval, 'ms', { label: 'p50' })}, p95 ${Math.max(0, percentile(walls, 0.95)).toFixed(1)} ms, CPU p50 ${cpu.toFixed(1)} ms`,
    note: note === '' ? 'judged on the upper end' : `${note}; judged on the upper end`,
  };
}

export const scratchCopy: Benchmark = {
  id: 'B9',
  title: 'Bash scratch copy',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const folders = context.quick ? 20 : 200;
    // The overlay's first command gets 20 rounds (its p95 is judged); the git-made copy, seconds a round, 5.
    const firstRounds = context.quick ? 2 : 20;
    const gitFirstRounds = context.quick ? 2 : 5;
    const laterRounds = context.quick ? 10 : 50;
    const base = await mkdtemp(path.join(tmpdir(), 'agent-team-bench-scratch-'));
    const root = path.join(base, 'repository');
    const plainFolder = path.join(base, 'plain');
    const directory = path.join(base, 'copies');
    await Promise.all([mkdir(root), mkdir(plainFolder), mkdir(directory, { mode: 0o700 })]);
    try {
      context.log(`B9: a repository of ${folders * 100} files`);
      await makeRepository(root, folders);
      // Found once per process (and per scratch directory), before any copy: shown apart.
      const { value: support, sample: detection } = await measured(() => overlaySupport(directory));
      // Without an overlay here the git-made copy is still measured: it is what runs on such a machine.
      const kinds: Kind[] = support.available ? ['overlay', 'git'] : ['git'];
      const copies = {
        overlay: new ScratchCopies({ workspaceRoot: root, directory, kind: 'overlay' }),
        git: new ScratchCopies({ workspaceRoot: root, directory, kind: 'git' }),
      };
      // Never warmed up: the first command that finds no copy made ahead (one that follows its task's
      // start closer than the warm-up takes, or a second tree's at the same time).
      const coldCopies = new ScratchCopies({ workspaceRoot: root, directory, kind: 'overlay' });
      const first: Record<Kind | 'cold', Sample[]> = { overlay: [], git: [], cold: [] };
      const warmUps: Sample[] = [];
      for (let round = 0; round < firstRounds; round++) {
        // Alternate which goes first, so neither always runs on a warmer machine.
        const ofRound: Array<Kind | 'cold'> = round < gitFirstRounds ? [...kinds] : kinds.filter((kind) => kind === 'overlay');
        if (support.available) ofRound.push('cold');
        for (const kind of round % 2 === 0 ? ofRound : [...ofRound].reverse()) {
          const trees = kind === 'cold' ? coldCopies : copies[kind];
          // As a task granted Bash does (commands-capability.ts): the warm-up starts at the grant and has
          // a model turn to finish before the first command; it is awaited here, and its time shown apart.
          if (kind !== 'cold') {
            const warmUp = await measured(() => trees.warmUp());
            if (kind === 'overlay') warmUps.push(warmUp.sample);
          }
          const { value: copy, sample } = await measured(async () => {
            const copy = await trees.acquire(`tree${round}`);
            await copy.prepare(proposalsOf(round));
            return copy;
          });
          first[kind].push(sample);
          trees.release(`tree${round}`, copy);
          if (round > 0 || kind === 'cold') await trees.endTree(`tree${round}`);
        }
      }
      await coldCopies.dispose();
      const laterOf = async (command: string, expected: string, sandbox?: Extract<SandboxAvailability, { available: true }>) => {
        const samples: Record<Kind, Sample[]> = { overlay: [], git: [] };
        for (let round = 0; round < laterRounds; round++) {
          for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
            samples[kind].push(
              await laterCommand({
                copies: copies[kind],
                rootId: 'tree0',
                round,
                command: command.replace('ROUND', String(round)),
                expected,
                workspaceRoot: root,
                plainFolder,
                ...(sandbox ? { sandbox } : {}),
              }),
            );
          }
        }
        return samples;
      };
      const later = await laterOf('echo round ROUND > report.txt', 'report.txt');
      const deeper = await laterOf('echo round ROUND >> src/module1/file3.ts', 'src/module1/file3.ts');
      const availability = await detectSandbox();
      const inSandbox = availability.available ? await laterOf('echo round ROUND > report.txt', 'report.txt', availability) : undefined;
      await Promise.all([copies.overlay.dispose(), copies.git.dispose()]);
      const ratio = support.available
        ? median(first.git.map((sample) => sample.wall)) / median(first.overlay.map((sample) => sample.wall))
        : 0;
      return {
        measurements: [
          figure(
            'first command: copy ready (overlay)',
            first.overlay,
            300,
            `${first.overlay.length} rounds; ${folders * 100} files; the copy made ahead by the warm-up of the task's grant; p95 target 150 ms; ${ratio.toFixed(0)}x faster than the git-made copy in the same run`,
          ),
          figure(
            'first command without a warm-up: copy ready (overlay)',
            first.cold,
            undefined,
            "the copy made on the command's path (no copy made ahead: a command sooner after its task's start than the warm-up takes)",
          ),
          {
            name: 'warm-up at the grant (overlay: copy made ahead)',
            value: warmUps.length > 0 ? median(warmUps.map((sample) => sample.wall)) : null,
            unit: 'ms',
            ...(warmUps.length > 0
              ? {
                  display: `p50 ${median(warmUps.map((sample) => sample.wall)).toFixed(1)} / p95 ${percentile(
                    warmUps.map((sample) => sample.wall),
                    0.95,
                  ).toFixed(1)} ms`,
                }
              : {}),
            note: "off the first command's path when the model turn before it is longer (the first round includes the detection)",
          },
          ...(first.overlay.length > 0
            ? [
                {
                  name: 'first command: copy ready (overlay), p95',
                  value: percentile(
                    first.overlay.map((sample) => sample.wall),
                    0.95,
                  ),
                  unit: 'ms',
                  target: 150,
                  note: `nearest rank of ${first.overlay.length}`,
                },
              ]
            : []),
          // The git-made copy is judged (by the second pass's targets) only where it is the copy commands get.
          figure(
            'first command: copy ready (git-made copy)',
            first.git,
            support.available ? undefined : 2000,
            support.available ? 'the fallback where no overlay can be mounted (judged there: <= 2 s)' : 'the copy commands get here',
          ),
          addedFigure('later command: added (overlay)', later.overlay, 20, 'paired with the same command in a plain folder'),
          addedFigure(
            'later command: added (git-made copy)',
            later.git,
            support.available ? undefined : 50,
            support.available ? 'the fallback (judged where it is the copy commands get: <= 50 ms)' : '',
          ),
          addedFigure(
            'later command editing a tracked file in a subfolder: added (overlay)',
            deeper.overlay,
            undefined,
            'the folder it wrote in is checked for files gone (re-made folders)',
          ),
          addedFigure('later command editing a tracked file in a subfolder: added (git-made copy)', deeper.git, undefined, ''),
          ...(inSandbox
            ? [
                addedFigure(
                  'later command in the sandbox: added (overlay)',
                  inSandbox.overlay,
                  undefined,
                  'copy and sandbox together, less the same command run outside both',
                ),
                addedFigure('later command in the sandbox: added (git-made copy)', inSandbox.git, undefined, ''),
              ]
            : [
                {
                  name: 'later command in the sandbox: added',
                  value: null,
                  unit: 'ms',
                  note: `no sandbox here: ${availability.available ? '' : availability.reason}`,
                },
              ]),
          support.available
            ? {
                name: 'overlay detection (once per process)',
                value: detection.wall,
                unit: 'ms',
                display: `${detection.wall.toFixed(1)} ms, CPU ${detection.cpu.toFixed(1)} ms`,
                note: "off the first command's path: started in the background when a task is granted Bash (ScratchCopies.warmUp), a model turn before its first command",
              }
            : { name: 'overlay detection (once per process)', value: null, unit: 'ms', note: `no overlay here: ${support.reason}` },
        ],
        details: { files: folders * 100, first, later, deeper, inSandbox, detection },
      };
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};
