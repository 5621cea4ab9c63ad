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
import { ensureCommandAllowed } from './command-permission.js';
import { runCommandProcess } from './command-process.js';
import { describeCommandRun } from './command-run-report.js';
import { launchInCopy } from './copy-launch.js';
import { limitHit } from './sandbox/resource-limits.js';
import type { ProposedFile } from '../file-tools/task-tools.js';

export const defaultCommandTimeoutMs = 120_000;
export const maxCommandTimeoutMs = 600_000;
/** The ends of the output the agent reads; a test run's summary and failures come last. */
export const stdoutTailBytes = 24 * 1024;
export const stderrTailBytes = 12 * 1024;

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
      await ensureCommandAllowed(input, options, state, network, context.signal);
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
        return describeCommandRun(
          result,
          { usedMs: input.timeout_ms ?? defaultCommandTimeoutMs, maxMs: maxCommandTimeoutMs },
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
