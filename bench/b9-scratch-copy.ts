/**
 * B9, the `Bash` tool's scratch copy: how long until a tree's first command can run, and what every later
 * command of the tree adds around the command itself.
 *
 * The repository: 20,000 committed files (200 folders of 100), a working tree with 20 modified files and
 * 10 untracked ones, and an ignored `node_modules`. "First command": a new tree's copy made (git checkout
 * of HEAD borrowing the repository's objects, the working tree's changes copied, dependencies linked) and
 * brought to a task's view with 3 proposals. "Later command": the same tree's copy taken again, brought
 * to another task's view (the previous proposals and the files the previous command wrote put back, new
 * proposals written), and afterwards asked what the command changed: everything `Bash` does besides
 * running the command. The command in between writes one file, as a test run writing a report would.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScratchCopies } from '../src/engine/commands/scratch-copies.js';
import { detectSandbox } from '../src/engine/commands/sandbox/sandbox-availability.js';
import { timeCommand } from './support/command-runs.js';
import { median, now, percentile } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

async function makeRepository(root: string, folders: number): Promise<void> {
  for (let folder = 0; folder < folders; folder++) {
    const directory = path.join(root, 'src', `module${folder}`);
    await mkdir(directory, { recursive: true });
    await Promise.all(Array.from({ length: 100 }, (_, file) => writeFile(path.join(directory, `file${file}.ts`), `export const value${file} = ${folder * 100 + file};\n`.repeat(8))));
  }
  await writeFile(path.join(root, '.gitignore'), 'node_modules/\n');
  await mkdir(path.join(root, 'node_modules', 'dependency'), { recursive: true });
  await writeFile(path.join(root, 'node_modules', 'dependency', 'index.js'), 'module.exports = 1;\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the repository');
  for (let file = 0; file < 20; file++) await writeFile(path.join(root, 'src', 'module0', `file${file}.ts`), `export const changed = ${file};\n`);
  for (let file = 0; file < 10; file++) await writeFile(path.join(root, `untracked${file}.ts`), `export const added = ${file};\n`);
}

const proposalsOf = (round: number) => [0, 1, 2].map((index) => ({ path: `src/module${(round + index) % 5}/file${50 + index}.ts`, content: `export const proposed = ${round};\n` }));

export const scratchCopy: Benchmark = {
  id: 'B9',
  title: 'Bash scratch copy',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const folders = context.quick ? 20 : 200;
    const firstRounds = context.quick ? 2 : 5;
    const laterRounds = context.quick ? 10 : 50;
    const base = await mkdtemp(path.join(tmpdir(), 'agent-team-bench-scratch-'));
    const root = path.join(base, 'repository');
    await mkdir(root);
    try {
      context.log(`B9: a repository of ${folders * 100} files`);
      await makeRepository(root, folders);
      const copies = new ScratchCopies({ workspaceRoot: root, directory: path.join(base, 'copies') });
      const first: number[] = [];
      for (let round = 0; round < firstRounds; round++) {
        const started = now();
        const copy = await copies.acquire(`tree${round}`);
        await copy.prepare(proposalsOf(round));
        first.push(now() - started);
        copies.release(`tree${round}`, copy);
        if (round > 0) await copies.endTree(`tree${round}`);
      }
      const later: number[] = [];
      for (let round = 0; round < laterRounds; round++) {
        const started = now();
        const copy = await copies.acquire('tree0');
        await copy.prepare(proposalsOf(round + 1));
        const prepared = now();
        await writeFile(path.join(copy.cwd, 'report.txt'), `round ${round}\n`);
        const resumed = now();
        const changed = await copy.changedFiles();
        copies.release('tree0', copy);
        later.push(prepared - started + (now() - resumed));
        if (!changed.includes('report.txt')) throw new Error(`the command's file was not reported: ${changed.join(', ')}`);
      }
      // The same later command, now really run in the OS sandbox (it writes the report), against the same
      // command outside it in the same round: what a later sandboxed command adds in all.
      const availability = await detectSandbox();
      const inSandbox: number[] = [];
      if (availability.available) {
        for (let round = 0; round < laterRounds; round++) {
          const started = now();
          const copy = await copies.acquire('tree0');
          await copy.prepare(proposalsOf(round + 1));
          const place = { cwd: copy.cwd, workspaceRoot: root, copy: copy.sandboxPaths };
          await timeCommand(`echo round ${round} > report.txt`, place, availability);
          const changed = await copy.changedFiles();
          const total = now() - started;
          copies.release('tree0', copy);
          if (!changed.includes('report.txt')) throw new Error(`the sandboxed command's file was not reported: ${changed.join(', ')}`);
          const outside = await timeCommand(`echo round ${round} > /dev/null`, place, undefined);
          inSandbox.push(total - outside);
        }
      }
      await copies.dispose();
      return {
        measurements: [
          { name: 'first command: copy ready', value: median(first), unit: 'ms', target: 2000, note: `median of ${firstRounds}; ${folders * 100} files` },
          { name: 'later command: added', value: median(later), unit: 'ms', target: 50, display: `p50 ${median(later).toFixed(1)} / p95 ${percentile(later, 0.95).toFixed(1)} ms`, note: 'target on p50' },
          availability.available
            ? { name: 'later command in the sandbox: added', value: median(inSandbox), unit: 'ms', display: `p50 ${median(inSandbox).toFixed(1)} / p95 ${percentile(inSandbox, 0.95).toFixed(1)} ms`, note: 'copy and sandbox together, less the same command run outside it' }
            : { name: 'later command in the sandbox: added', value: null, unit: 'ms', note: `no sandbox here: ${availability.reason}` },
        ],
        details: { files: folders * 100, first, later, inSandbox },
      };
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};
