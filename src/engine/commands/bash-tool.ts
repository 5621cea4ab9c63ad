/**
 * `Bash`: an agent runs a command to check its work (the tests, a build, a type check) in a scratch copy
 * of the workspace with the proposals it sees applied. The user's folder is never the working directory
 * and nothing the command changes is kept; the result says what it changed, so the agent can propose
 * those changes as edits if they are wanted.
 */
import * as z from 'zod';
import { type Tool, defineTool } from '../agent/tool.js';
import { systemClock } from '../clock.js';
import { describeCopyKind } from './command-copy.js';
import type { CommandHost } from './command-host.js';
import { networkAllowed } from './command-network.js';
import { judgeCommand } from './command-patterns.js';
import { type CommandRunResult, runCommandProcess } from './command-process.js';
import { launchInCopy } from './copy-launch.js';
import { commandShell } from './sandbox/command-launch.js';
import { limitHit } from './sandbox/resource-limits.js';
import { describeIsolation, type SandboxState } from './sandbox/sandbox-state.js';
import type { ProposedFile } from '../file-tools/task-tools.js';

export const defaultCommandTimeoutMs = 120_000;
export const maxCommandTimeoutMs = 600_000;
/** The ends of the output the agent reads; a test run's summary and failures come last. */
export const stdoutTailBytes = 24 * 1024;
export const stderrTailBytes = 12 * 1024;
/** Changed files listed by name at most. */
const maxChangedFilesListed = 50;

const bashInput = z.object({
  command: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('The command line, run by bash in a scratch copy of the workspace (the workspace directory is the working directory).'),
  timeout_ms: z
    .number()
    .int()
    .min(1_000)
    .max(maxCommandTimeoutMs)
    .optional()
    .describe(`Milliseconds before the command is ended. Default ${defaultCommandTimeoutMs}, at most ${maxCommandTimeoutMs}.`),
  description: z
    .string()
    .max(300)
    .optional()
    .describe('What the command is for, in a few words (shown to the user when they are asked to allow it).'),
});

export interface BashToolOptions {
  host: CommandHost;
  taskId: string;
  /** The tree's root: its scratch copy is shared by the tree's commands. */
  rootId: string;
  role: string;
  /** The files as this task sees them: its own proposals and the stacked ones of its tree. */
  proposals(): Promise<ProposedFile[]>;
  /** Shows the task as waiting while the user decides (TaskWorkContext.waitForUser). */
  waitForUser<T>(waitedFor: () => Promise<T>): Promise<T>;
}

export function createBashTool(options: BashToolOptions): Tool<z.infer<typeof bashInput>> {
  const { host } = options;
  return defineTool({
    name: 'Bash',
    description:
      "Run a command to check your work: the tests, a build, a type check, a linter. It runs in a scratch copy of the workspace in which your proposed edits (and those of earlier tasks you can see) are applied, so it tests what you propose; the user's files are never touched, and files the command changes in the copy are not kept (the result lists them). The user decides which commands may run: one they have not allowed is refused or waits for their approval. You get the exit code, the end of stdout and stderr, and the duration. No input can be typed; don't start servers or watchers.",
    inputSchema: bashInput,
    readOnly: false,
    // A person may be asked first, and the command has its own timeout, which ends its processes.
    timeoutMs: Infinity,
    async execute(input, context) {
      const refusal = host.refusal();
      if (refusal) throw new Error(refusal);
      const state = await host.sandbox();
      const network = await networkAllowed(host.network, state, { kind: 'agent-command', command: input.command });
      await allowed(input, options, state, network, context.signal);
      const copy = await host.copies.acquire(options.rootId);
      // A copy that could not be brought to this task's view, or read back (a command that removed its
      // `.git`, say), is not given to the next command: that one gets a fresh copy.
      let broken = false;
      try {
        await copy.prepare(await options.proposals(), context.signal).catch((error: unknown) => {
          broken = true;
          throw error;
        });
        const launch = await launchInCopy({ command: input.command, copy, environment: host.environment(), host, state, network });
        const result = await runCommandProcess({
          launch,
          cwd: copy.cwd,
          timeoutMs: input.timeout_ms ?? defaultCommandTimeoutMs,
          signal: context.signal,
          clock: host.clock ?? systemClock,
          stdoutBytes: stdoutTailBytes,
          stderrBytes: stderrTailBytes,
        });
        const changed =
          result.ended === 'stopped'
            ? []
            : await copy.changedFiles(context.signal).catch(() => {
                broken = true;
                return undefined;
              });
        return describeRun(
          result,
          input.timeout_ms ?? defaultCommandTimeoutMs,
          changed,
          copy.linked,
          limitHit(result, host.limits),
          describeCopyKind(copy.kind, host.copies.overlayUnavailable),
        );
      } finally {
        host.copies.release(options.rootId, copy, { broken });
      }
    },
  });
}

/**
 * Resolves when the command may run: a pattern allows it (only where it runs in a sandbox, or the user
 * turned the sandbox off), or the user allowed it now. Throws the refusal the agent reads otherwise.
 */
async function allowed(
  input: z.infer<typeof bashInput>,
  options: BashToolOptions,
  state: SandboxState,
  network: boolean,
  signal: AbortSignal,
): Promise<void> {
  const { host } = options;
  const verdict = await judgeCommand(input.command, host.allowedPatterns(), { shell: commandShell().variant });
  // Without a sandbox, no pattern decides: a person looks at every command.
  if (verdict.allowed && state.mode !== 'unavailable') return;
  if (!host.approval) {
    if (verdict.allowed && state.mode === 'unavailable') {
      throw new Error(
        `Not run: there is no OS sandbox here (${state.reason}), and without one every command needs the user's approval, which cannot be asked for here. ${host.howToRunUnsandboxed} Don't retry it; say in your answer which command the user should run to check your work.`,
      );
    }
    const why = verdict.reason
      ? ` (${verdict.reason})`
      : verdict.unmatched.length > 0 && verdict.unmatched[0] !== input.command
        ? ` (not allowed: ${verdict.unmatched.map((part) => `\`${part}\``).join(', ')})`
        : '';
    throw new Error(
      `Not run: \`${input.command}\` is not among the commands the user allows${why}. ${host.howToAllow} Don't retry it; say in your answer which command the user should run to check your work.`,
    );
  }
  const approval = host.approval;
  const request = {
    taskId: options.taskId,
    role: options.role,
    command: input.command,
    ...(input.description ? { description: input.description } : {}),
    isolation: describeIsolation(state, network),
  };
  const decision = await options.waitForUser(() => approval.request(request, signal));
  if (decision !== 'allow')
    throw new Error(`Not run: the user denied \`${input.command}\`. Don't run it again; say in your answer what it would have checked.`);
}

/** The result the agent reads: how it ended, what it changed, then the ends of its output. */
export function describeRun(
  result: CommandRunResult,
  timeoutMs: number,
  changed: readonly string[] | undefined,
  linked: readonly string[],
  limit?: string,
  copyLine?: string,
): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const lines: string[] = [];
  if (limit !== undefined) lines.push(`${limit} (${seconds} s)`);
  else if (result.ended === 'timeout')
    lines.push(
      `Timed out after ${Math.round(timeoutMs / 1000)} s: the command and every process it started were ended. Run something narrower, or pass a longer timeout_ms (at most ${maxCommandTimeoutMs}).`,
    );
  else if (result.ended === 'stopped') lines.push(`Stopped after ${seconds} s: the command and every process it started were ended.`);
  else if (result.exitCode !== null) lines.push(`Exit code ${result.exitCode} (${seconds} s)`);
  else lines.push(`Ended by signal ${result.signal ?? 'unknown'} (${seconds} s)`);
  if (changed === undefined) lines.push('Which files it changed in the scratch copy could not be determined; none of it is kept.');
  else if (changed.length > 0) {
    const listed = changed.slice(0, maxChangedFilesListed).join(', ');
    const more = changed.length > maxChangedFilesListed ? ` and ${changed.length - maxChangedFilesListed} more` : '';
    lines.push(`Files it changed in the scratch copy (not kept; propose them with Edit or Write if they are wanted): ${listed}${more}`);
  }
  if (linked.length > 0) lines.push(`Linked from the user's folder, not copied (writes there reach it): ${linked.join(', ')}`);
  if (copyLine !== undefined) lines.push(copyLine);
  lines.push(section('stdout', result.stdout), section('stderr', result.stderr));
  return lines.filter((line) => line !== '').join('\n');
}

function section(name: string, output: { text: string; droppedBytes: number }): string {
  if (output.text === '' && output.droppedBytes === 0) return `${name}: (empty)`;
  const note = output.droppedBytes > 0 ? ` (the first ${output.droppedBytes} bytes are not shown; this is the end)` : '';
  return `${name}${note}:\n${output.text.replace(/\s+$/, '')}`;
}
