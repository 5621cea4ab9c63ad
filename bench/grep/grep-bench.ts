/**
 * Grep benchmark: our `Grep` tool (ripgrep engine and JavaScript fallback) against running `rg` directly,
 * on a generated tree of 20,000 files. Not a test: it measures wall-clock time.
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

export interface GrepBenchmarkOptions {
  /** Files in the generated tree. Default: 20,000. */
  files?: number;
  /** Timed runs per contender (after one warm-up run); the median is reported. Default: 5. */
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
  /** Our tool's time divided by rg's own. */
  toolRipgrepRatio: number;
  toolJavaScriptRatio: number;
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
  const runs = options.runs ?? 5;
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
      const direct = await timeMedian(runs, () => runRipgrepDirectly(ripgrepPath, root, query.pattern));
      const viaRipgrep = await timeMedian(runs, () => toolRipgrep(query.pattern));
      const viaJavaScript = await timeMedian(runs, () => toolJavaScript(query.pattern));
      const figures: GrepQueryFigures = {
        name: query.name,
        pattern: query.pattern,
        directMatches: direct.value,
        toolMatches: viaRipgrep.value,
        ripgrepDirectMs: round(direct.medianMs),
        toolRipgrepMs: round(viaRipgrep.medianMs),
        toolJavaScriptMs: round(viaJavaScript.medianMs),
        toolRipgrepRatio: round(viaRipgrep.medianMs / direct.medianMs),
        toolJavaScriptRatio: round(viaJavaScript.medianMs / direct.medianMs),
      };
      if (viaJavaScript.value !== viaRipgrep.value) throw new Error(`engines disagree on ${query.pattern}: ${viaJavaScript.value} vs ${viaRipgrep.value} lines`);
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
    const directory = nodePath.join(root, 'src', `group${Math.floor(index / (perDirectory * 10))}`, `module${Math.floor(index / perDirectory)}`);
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

async function timeMedian(runs: number, task: () => Promise<number>): Promise<{ medianMs: number; value: number }> {
  let value = await task(); // warm-up: file-system cache, JIT
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    value = await task();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)], value };
}

function countToolLines(output: string): number {
  return output.split('\n').filter((line) => /^[^[].*:\d+: /.test(line)).length;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function formatFigures(figures: GrepQueryFigures): string {
  return (
    `${figures.name} (/${figures.pattern}/): rg direct ${figures.ripgrepDirectMs} ms (${figures.directMatches} lines); ` +
    `Grep tool via rg ${figures.toolRipgrepMs} ms (×${figures.toolRipgrepRatio}); ` +
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
