/**
 * Grep benchmark: our `Grep` tool (ripgrep engine and JavaScript fallback) against running `rg` directly,
 * on a generated tree of 20,000 files. Not a test: it measures wall-clock and CPU time.
 *
 * The tool and `rg` run in turns (tool, rg, rg, tool, …) and the figure judged is the median of the
 * pairs' ratios: both sides of a pair see the same load, so a busy machine moves both. CPU time is this
 * process's plus that of the child processes that ended meanwhile (`rg`), summed over each side's runs.
 * The tool's workspace is made once, as an agent's session makes it: its first search (the warm-up)
 * checks every file's size and learns the large ones (large-files.ts), the timed ones use that.
 *
 *   npx esbuild bench/grep/grep-bench.ts --bundle --platform=node --outfile=/tmp/grep-bench.js && node /tmp/grep-bench.js
 *   (optional: --files 20000 --runs 5)
 *
 * `runGrepBenchmark(options)` returns the figures, for the `npm run bench` harness.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { findRipgrepOnPath } from '../../src/engine/workspace/search/find-ripgrep.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import { childrenCpuMs } from '../support/run-cost.js';
import { median } from '../support/stats.js';

export interface GrepBenchmarkOptions {
  /** Files in the generated tree. Default: 20,000. */
  files?: number;
  /** Timed pairs (tool, rg) per query, after one warm-up run of each; medians are reported. Default: 15. */
  runs?: number;
  /** The ripgrep binary. Default: `rg` on PATH; the benchmark needs one. */
  ripgrepPath?: string;
  /** Progress lines. Default: none. */
  log?: (line: string) => void;
}

export interface GrepQueryFigures {
  name: string;
  pattern: string;
  /** Matching lines `rg` prints when run directly (no cap). */
  directMatches: number;
  /** Lines our Grep tool returned (it caps at 200). */
  toolMatches: number;
  /** Median milliseconds. */
  ripgrepDirectMs: number;
  toolRipgrepMs: number;
  toolJavaScriptMs: number;
  /** The median of the pairs' ratios, our tool's time to rg's own in the same pair. */
  toolRipgrepRatio: number;
  toolJavaScriptRatio: number;
  /** CPU milliseconds per run (this process and its ended children: rg). */
  ripgrepDirectCpuMs: number;
  toolRipgrepCpuMs: number;
}

export interface GrepBenchmarkResult {
  files: number;
  runs: number;
  ripgrepPath: string;
  generateMs: number;
  queries: GrepQueryFigures[];
}

const queriesToRun = [
  // In 1 file of 200: well under the tool's cap, so both sides search everything.
  { name: 'rare identifier', pattern: 'rareToken\\d+' },
  // In every file: the tool stops at its cap of 200 lines; rg prints all of them.
  { name: 'common word', pattern: 'function' },
  { name: 'no match', pattern: 'zz_never_present_zz' },
];

export async function runGrepBenchmark(options: GrepBenchmarkOptions = {}): Promise<GrepBenchmarkResult> {
  const files = options.files ?? 20_000;
  const runs = options.runs ?? 15;
  const log = options.log ?? (() => undefined);
  const ripgrepPath = options.ripgrepPath ?? (await findRipgrepOnPath());
  if (ripgrepPath === null) throw new Error('The grep benchmark needs ripgrep (rg) on PATH, or ripgrepPath.');
  const root = await mkdtemp(nodePath.join(tmpdir(), 'agent-team-grep-bench-'));
  try {
    const generateStart = performance.now();
    await generateTree(root, files);
    const generateMs = performance.now() - generateStart;
    log(`generated ${files} files in ${Math.round(generateMs)} ms under ${root}`);
    const grepWith = (engine: string | null) => {
      const workspace = new NodeWorkspace(root, { ripgrepPath: engine });
      const { readOnly } = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 'bench', role: 'bench' }) });
      const grep = readOnly.find((tool) => tool.name === 'Grep')!;
      return async (pattern: string) =>
        grep.execute({ pattern }, { signal: new AbortController().signal, toolCallId: 'bench' }).then(countToolLines);
    };
    const toolRipgrep = grepWith(ripgrepPath);
    const toolJavaScript = grepWith(null);
    const queries: GrepQueryFigures[] = [];
    for (const query of queriesToRun) {
      const {
        tool: viaRipgrep,
        direct,
        ratio,
      } = await timePairs(
        runs,
        () => toolRipgrep(query.pattern),
        () => runRipgrepDirectly(ripgrepPath, root, query.pattern),
      );
      // The fallback, for information: timed on its own, against the median of rg's runs above.
      const viaJavaScript = await timeRuns(Math.min(runs, 5), () => toolJavaScript(query.pattern));
      const figures: GrepQueryFigures = {
        name: query.name,
        pattern: query.pattern,
        directMatches: direct.value,
        toolMatches: viaRipgrep.value,
        ripgrepDirectMs: round(direct.medianMs),
        toolRipgrepMs: round(viaRipgrep.medianMs),
        toolJavaScriptMs: round(viaJavaScript.medianMs),
        toolRipgrepRatio: round(ratio),
        toolJavaScriptRatio: round(viaJavaScript.medianMs / direct.medianMs),
        ripgrepDirectCpuMs: round(direct.cpuMs),
        toolRipgrepCpuMs: round(viaRipgrep.cpuMs),
      };
      if (viaJavaScript.value !== viaRipgrep.value)
        throw new Error(`engines disagree on ${query.pattern}: ${viaJavaScript.value} vs ${viaRipgrep.value} lines`);
      log(formatFigures(figures));
      queries.push(figures);
    }
    return { files, runs, ripgrepPath, generateMs: round(generateMs), queries };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** A source-like tree: 100 files per directory, two levels deep, with a .gitignore and node_modules to skip. */
async function generateTree(root: string, files: number): Promise<void> {
  await writeFile(nodePath.join(root, '.gitignore'), 'dist/\n*.log\n');
  await mkdir(nodePath.join(root, 'node_modules', 'dep'), { recursive: true });
  await writeFile(nodePath.join(root, 'node_modules', 'dep', 'index.js'), 'function rareToken1() {}\n');
  const perDirectory = 100;
  const batch: Array<Promise<void>> = [];
  for (let index = 0; index < files; index++) {
    const directory = nodePath.join(
      root,
      'src',
      `group${Math.floor(index / (perDirectory * 10))}`,
      `module${Math.floor(index / perDirectory)}`,
    );
    if (index % perDirectory === 0) await mkdir(directory, { recursive: true });
    batch.push(writeFile(nodePath.join(directory, `file${index}.ts`), sourceFile(index)));
    if (batch.length >= 256) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}

function sourceFile(index: number): string {
  const lines = [`// file ${index}`, `import { helper${index % 50} } from '../shared/helper${index % 50}.js';`, ''];
  for (let block = 0; block < 8; block++) {
    lines.push(`export function compute${index}_${block}(input: number): number {`);
    lines.push(`  const scaled = input * ${block + 1} + ${index % 97};`);
    lines.push(`  return helper${index % 50}(scaled) - ${block};`);
    lines.push('}', '');
  }
  if (index % 200 === 7) lines.push(`export const rareToken${index} = true;`);
  return `${lines.join('\n')}\n`;
}

function runRipgrepDirectly(ripgrepPath: string, cwd: string, pattern: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(ripgrepPath, ['--line-number', '--no-heading', '--regexp', pattern], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 0x0a) lines++;
    });
    child.on('error', reject);
    child.on('close', () => resolve(lines));
  });
}

interface Timed {
  medianMs: number;
  /** CPU per run, ms: this process and the children that ended meanwhile. */
  cpuMs: number;
  /** What the last run returned (lines found). */
  value: number;
}

/** Times one run of `task`, adding its wall time and CPU time to `into`. */
async function timeOnce(task: () => Promise<number>, into: { times: number[]; cpuMs: number }): Promise<number> {
  const cpuStart = process.cpuUsage();
  const childrenStart = childrenCpuMs() ?? 0;
  const start = performance.now();
  const value = await task();
  into.times.push(performance.now() - start);
  const cpu = process.cpuUsage(cpuStart);
  into.cpuMs += (cpu.user + cpu.system) / 1000 + (childrenCpuMs() ?? 0) - childrenStart;
  return value;
}

/**
 * `runs` runs of `tool` and of `direct` in turns, after one warm-up run of each (file-system cache, JIT,
 * what the tool learns); which of the two goes first alternates from pair to pair, so that neither always
 * runs right after the other.
 */
async function timePairs(
  runs: number,
  tool: () => Promise<number>,
  direct: () => Promise<number>,
): Promise<{ tool: Timed; direct: Timed; ratio: number }> {
  let toolValue = await tool();
  let directValue = await direct();
  const toolSide = { times: [] as number[], cpuMs: 0 };
  const directSide = { times: [] as number[], cpuMs: 0 };
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) toolValue = await timeOnce(tool, toolSide);
    directValue = await timeOnce(direct, directSide);
    if (run % 2 === 1) toolValue = await timeOnce(tool, toolSide);
  }
  const ratios = toolSide.times.map((time, index) => time / directSide.times[index]);
  return {
    tool: { medianMs: median(toolSide.times), cpuMs: toolSide.cpuMs / runs, value: toolValue },
    direct: { medianMs: median(directSide.times), cpuMs: directSide.cpuMs / runs, value: directValue },
    ratio: median(ratios),
  };
}

async function timeRuns(runs: number, task: () => Promise<number>): Promise<Timed> {
  let value = await task(); // warm-up
  const side = { times: [] as number[], cpuMs: 0 };
  for (let run = 0; run < runs; run++) value = await timeOnce(task, side);
  return { medianMs: median(side.times), cpuMs: side.cpuMs / runs, value };
}

function countToolLines(output: string): number {
  return output.split('\n').filter((line) => /^[^[].*:\d+: /.test(line)).length;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function formatFigures(figures: GrepQueryFigures): string {
  return (
    `${figures.name} (/${figures.pattern}/): rg direct ${figures.ripgrepDirectMs} ms, CPU ${figures.ripgrepDirectCpuMs} (${figures.directMatches} lines); ` +
    `Grep tool via rg ${figures.toolRipgrepMs} ms, CPU ${figures.toolRipgrepCpuMs} (×${figures.toolRipgrepRatio}, median of the pairs); ` +
    `Grep tool via JavaScript ${figures.toolJavaScriptMs} ms (×${figures.toolJavaScriptRatio}); tool returned ${figures.toolMatches} lines`
  );
}

const invokedDirectly = /grep-bench\.(?:[cm]?js|ts)$/.test(process.argv[1] ?? '');
if (invokedDirectly) {
  // Optional flags: --files N --runs N
  const flag = (name: string) => {
    const index = process.argv.indexOf(`--${name}`);
    return index > 0 ? Number(process.argv[index + 1]) : undefined;
  };
  runGrepBenchmark({ files: flag('files'), runs: flag('runs'), log: (line) => console.log(line) })
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
