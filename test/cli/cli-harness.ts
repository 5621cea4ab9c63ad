/**
 * Runs the real CLI bundle as a child process against the mock provider server: what a user's terminal
 * or a CI job sees, exit code included.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { MockProtocol, RecordedRequest } from '../support/mock-provider/index.js';

export async function buildCli(): Promise<{ cliPath: string; dispose(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'agent-team-cli-'));
  const cliPath = path.join(directory, 'cli.cjs');
  // Built as `npm run build` builds it: the provider SDKs in vendor bundles beside it, loaded on first use.
  const { vendorBuilds, vendorPlugin } = await import('../../scripts/vendor-bundles.mjs');
  await Promise.all([
    esbuild.build({
      entryPoints: [path.resolve(__dirname, '../../src/cli/main.ts')],
      outfile: cliPath,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
      plugins: [vendorPlugin],
    }),
    ...vendorBuilds(directory).map((options) => esbuild.build(options)),
  ]);
  return { cliPath, dispose: () => rm(directory, { recursive: true, force: true }) };
}

export interface CliRun {
  child: ChildProcess;
  /** Resolves when the process exits. */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Resolves once stderr contains `text`. */
  waitForStderr(text: string): Promise<void>;
  /** Resolves with the first JSON event matching `predicate` as it arrives on stdout. */
  waitForEvent(predicate: (event: CliEvent) => boolean): Promise<CliEvent>;
  /** What the process has written so far, while it runs. */
  stdout(): string;
  stderr(): string;
}

export type CliEvent = Record<string, unknown> & { type: string };

/**
 * `stdin`: `'pipe'` keeps the child's stdin open for the test to write to (`child.stdin`). Default: none.
 * `wrapper`: a command the CLI is run under (its argv, the CLI's appended), e.g. `bubblewrapReplacedBy`'s.
 */
export function startCli(
  cliPath: string,
  args: string[],
  environment: Record<string, string>,
  options: { stdin?: 'pipe'; wrapper?: readonly string[] } = {},
): CliRun {
  const argv = [...(options.wrapper ?? []), process.execPath, cliPath, ...args];
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...environment },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ predicate: (event: CliEvent) => boolean; resolve: (event: CliEvent) => void }> = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const before = stdout;
    stdout += chunk;
    const completeLines = stdout
      .slice(before.lastIndexOf('\n') + 1)
      .split('\n')
      .slice(0, -1);
    for (const line of completeLines) {
      const event = tryParse(line);
      if (!event) continue;
      for (const waiter of [...waiters]) {
        if (waiter.predicate(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    }
  });
  const stderrWaiters: Array<{ text: string; resolve: () => void }> = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of [...stderrWaiters]) {
      if (!stderr.includes(waiter.text)) continue;
      stderrWaiters.splice(stderrWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return {
    child,
    exited,
    waitForStderr: (text) => {
      if (stderr.includes(text)) return Promise.resolve();
      return new Promise((resolve) => stderrWaiters.push({ text, resolve }));
    },
    stdout: () => stdout,
    stderr: () => stderr,
    waitForEvent: (predicate) => {
      const seen = stdout
        .split('\n')
        .map(tryParse)
        .find((event) => event && predicate(event));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

export function parseEvents(stdout: string): CliEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const event = tryParse(line);
      if (!event) throw new Error(`stdout line is not a JSON event: ${line}`);
      return event;
    });
}

function tryParse(line: string): CliEvent | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && 'type' in value ? (value as CliEvent) : undefined;
  } catch {
    return undefined;
  }
}

/** Which agent sent a request, told by the first words of its system prompt. */
export function agentOf(
  request: RecordedRequest,
): 'coordinator' | 'planner' | 'synthesizer' | 'researcher' | 'reviewer' | 'refactorer' | 'unknown' {
  if (request.system.includes('You are the coordinator')) return 'coordinator';
  if (request.system.startsWith('You are the planner')) return 'planner';
  if (request.system.startsWith('You are the synthesizer')) return 'synthesizer';
  if (request.system.startsWith('You are a researcher')) return 'researcher';
  if (request.system.startsWith('You are a code reviewer')) return 'reviewer';
  if (request.system.startsWith('You are a refactorer')) return 'refactorer';
  return 'unknown';
}

/** How many model turns this agent has had before this request. */
export function priorTurns(request: RecordedRequest): number {
  const messages = (request.body as { messages?: Array<{ role: string }> }).messages ?? [];
  return messages.filter((message) => message.role === 'assistant').length;
}

/** The environment that points the CLI at the mock server for one protocol. */
export function providerEnvironment(protocol: MockProtocol, baseUrl: string): { args: string[]; env: Record<string, string> } {
  return protocol === 'anthropic'
    ? { args: ['--provider', 'anthropic', '--base-url', baseUrl], env: { ANTHROPIC_API_KEY: 'test-key' } }
    : { args: ['--provider', 'openai', '--base-url', `${baseUrl}/v1`], env: { OPENAI_API_KEY: 'test-key' } };
}
