/**
 * `agent-team run`: one delegation, start to end, on a terminal or as JSON Lines. Every run that starts
 * ends with exactly one `run-end` (JSON) or a final report (terminal), whatever happens: completion,
 * failure, budget, Ctrl-C (every task stopped, children included, exit 130), an internal error, or a run
 * that can make no more progress (exit 1, naming the stuck tasks).
 */
import {
  type AgentTeam,
  type ChangeSetRegistry,
  type ChecksVerdictDetail,
  ConfigurationError,
  describeStopReason,
  errorMessage,
  formatCost,
  formatWorkflowProblem,
  restoreProposals,
  resumeSourceOf,
  type RoleRegistry,
  type RunLog,
  type TaskManager,
  type TaskSnapshot,
  treeSettled,
  type WorkflowDefinition,
} from '../engine/index.js';
import { applyRunChanges } from './apply-changes.js';
import { createCliEngine } from './cli-engine.js';
import { canAsk, terminalTrustQuestion } from './trust-question.js';
import { RefusedCommands } from './refused-commands.js';
import { TerminalNotices } from './terminal-notices.js';
import type { RunArguments } from './arguments.js';
import { writeTraceFile } from './trace-file.js';
import { printChanges, useColor } from './changes-output.js';
import { exitCodes } from './exit-codes.js';
import { type InterruptibleProcess, Interrupts } from './interrupts.js';
import { type CliEndStatus, type CliJsonEvent, JsonEventMapper, runEndEvent } from './json-events.js';
import { StallGuard, type StallWatchedProcess } from './stall-guard.js';
import { openRunHistory, runHistoryDirectory } from './run-history.js';
import { StdinUserChannel } from './stdin-user-channel.js';
import { TerminalView } from './terminal-view.js';
import { QueuedQuestions } from './queued-questions.js';
import { readWorkflows } from './workflows-command.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';
import { withFileReferences } from './file-references.js';
import { readImageFiles } from './image-files.js';
import { type PromptCommandDelegation, promptCommandDelegation } from './prompt-command-run.js';
import path from 'node:path';
import { checksEvent, describeVerdict, runChecksAtEnd, type RunChecksParts } from './run-checks.js';

export interface RunContext {
  stdout: { write(text: string): void; isTTY?: boolean; columns?: number; rows?: number };
  stderr: { write(text: string): void; isTTY?: boolean; columns?: number; rows?: number };
  /** Where answers to agents' questions come from (one line each). Default: none (no user available). */
  stdin?: NodeJS.ReadableStream & { pause?: () => unknown };
  environment: NodeJS.ProcessEnv;
  /** Where SIGINT and `beforeExit` are heard and a forced exit happens; tests pass an EventEmitter. */
  process: InterruptibleProcess & StallWatchedProcess;
}

export async function runCommand(args: RunArguments, context: RunContext): Promise<number> {
  let userChannel: StdinUserChannel | undefined;
  const goesOnWith =
    args.resumeRun !== undefined ? { runId: args.resumeRun } : args.continueRun !== undefined ? { taskId: args.continueRun } : undefined;
  const engine = await createCliEngine({
    ...args,
    history: (root) =>
      openRunHistory(root, (message) => context.stderr.write(`agent-team: ${terminalSafe(message)}\n`), {
        keepRuns: args.keepRuns,
        goesOnWith,
        force: args.force,
      }),
    userChannel: (manager) => {
      if (!context.stdin) return undefined;
      const describeTask = (taskId: string) => {
        const task = manager.get(taskId);
        return task ? `${task.id} ${task.role}: ${task.description}` : taskId;
      };
      userChannel = new StdinUserChannel(context.stdin, context.stderr, describeTask);
      return userChannel;
    },
    // Someone at the terminal is asked whether an untrusted folder may run its own configuration.
    ...(context.stdin && canAsk(context.stdin, context.stderr) ? { askTrust: terminalTrustQuestion(context.stdin, context.stderr) } : {}),
    environment: context.environment,
    stderr: context.stderr,
  });
  const { workspace, roles, changes, taskManager, team, runLog, checks, close } = engine;

  const emit = (event: CliJsonEvent) => context.stdout.write(`${terminalSafeJson(event)}\n`);
  const mapper = new JsonEventMapper();
  const view = new TerminalView(args.json ? context.stderr : context.stdout);
  /** The first task this process starts: the run's root, or a follow-up. Earlier runs come from the history. */
  let runTaskId: string | undefined;
  const refusedCommands = new RefusedCommands();
  const terminalNotices = new TerminalNotices(context.stderr);
  const queuedQuestions = new QueuedQuestions(context.stderr);
  const unsubscribe = taskManager.onEvent((event) => {
    if (event.type === 'task-start') runTaskId ??= event.task.id;
    refusedCommands.handle(event);
    terminalNotices.handle(event);
    queuedQuestions.handle(event);
    if (args.json) for (const mapped of mapper.map(event)) emit(mapped);
    else view.handle(event);
  });
  const report = args.json ? context.stderr : context.stdout;
  const interrupts = new Interrupts(context.process, context.stderr, () => void taskManager.stopAll({ kind: 'user' }));
  const stallGuard = new StallGuard(context.process, () => taskManager.lifecycleReport(), args.maxConcurrent);
  let runEnded = false;
  const endRun = (root: TaskSnapshot | undefined, status: CliEndStatus, error?: string) => {
    if (runEnded) return;
    runEnded = true;
    view.finish();
    if (args.json) emit(runEndEvent(root, status, error));
    else printRunEnd(root, status, error, context.stdout);
  };

  try {
    const workflowRequest = args.workflow === undefined ? undefined : await workflowToRun(args.workflow, workspace.root, roles);
    // `/fix args`: a prompt file of the folder (prompt-command-run.ts); any other task as it is.
    const fromPromptFile =
      workflowRequest || args.plan || args.resumeRun !== undefined || args.continueRun !== undefined
        ? undefined
        : await promptCommandDelegation(args.task, args.agent, engine);
    for (const warning of fromPromptFile?.warnings ?? []) context.stderr.write(`agent-team: ${terminalSafe(warning)}\n`);
    const task = await withFileReferences(fromPromptFile?.prompt ?? args.task, args.files, workspace.root);
    const images = await readImageFiles(args.images, process.cwd());
    const budgets = { maxTokens: args.budgetTokens, maxUsd: args.budgetUsd };
    const run = (async () => {
      const started = workflowRequest
        ? await team.runWorkflow({ ...workflowRequest, input: args.task, ...budgets })
        : args.resumeRun !== undefined
          ? await resumeRun(args.resumeRun, {
              team,
              taskManager,
              changes,
              runLog,
              warn: (message) => context.stderr.write(`agent-team: ${terminalSafe(message)}\n`),
            })
          : args.continueRun !== undefined
            ? await team.followUp({ rootId: args.continueRun, message: task, images, awaitBackgroundTasks: true, ...budgets })
            : args.plan
              ? await team.plan({ task, maxDepth: args.maxDepth, maxSubtasks: args.maxSubtasks, ...budgets })
              : await team.delegate({
                  prompt: task,
                  images,
                  role: fromPromptFile ? fromPromptFile.role : args.agent,
                  mode: 'foreground',
                  awaitBackgroundTasks: true,
                  ...budgets,
                  ...promptFileRun(fromPromptFile),
                });
      // Subagents still running (only possible after a stop or failure of the root) are waited out too.
      await treeSettled(taskManager, started.task.rootId);
      return started.task.id;
    })();
    const finished = await Promise.race([run.then((rootId) => ({ rootId })), stallGuard.stalled.then((diagnostic) => ({ diagnostic }))]);
    if ('diagnostic' in finished) {
      context.stderr.write(`agent-team: ${finished.diagnostic}\n`);
      await taskManager.stopAll({ kind: 'shutdown' });
      const root = runTaskId === undefined ? undefined : taskManager.get(runTaskId);
      endRun(root, 'failed', 'the run stopped making progress (a bug in Agent Team); see the message above');
      return exitCodes.failed;
    }
    const root = taskManager.get(finished.rootId) as TaskSnapshot;

    const proposed = changes.list().filter((changeSet) => changeSet.snapshot().files.length > 0);
    if (args.json) {
      for (const changeSet of proposed) {
        for (const file of changeSet.snapshot().files)
          emit({
            type: 'change-proposed',
            taskId: changeSet.taskId,
            path: file.path,
            diff: file.diff,
            ...(file.target ? { target: file.target } : {}),
          });
      }
    } else {
      printChanges(proposed, context.stdout, args.apply, useColor(context.stdout, context.environment), changes);
    }
    const verdict = args.checks
      ? await checksAtEnd(
          root,
          { checks, changes, taskManager, runLog, workspaceRoot: workspace.root, signal: interrupts.signal },
          context.stderr,
        )
      : undefined;
    if (verdict) {
      if (args.json) emit(checksEvent(verdict));
      else context.stdout.write(describeVerdict(verdict));
    }
    const heldBack = args.apply && verdict?.hasNewFailures === true;
    if (heldBack)
      report.write(
        `Not applied: the checks found new failures. Look at them, then apply anyway with agent-team apply ${verdict.runId} --force.\n`,
      );
    const applied = heldBack
      ? { failed: true }
      : args.apply
        ? await applyRunChanges(root, proposed, workspace, {
            signal: interrupts.signal,
            output: report,
            taskOf: (taskId) => taskManager.get(taskId),
            runId: runLog?.runOf(root.id) ?? root.rootId,
            ...(runLog ? { restorePoints: runLog } : {}),
          })
        : { failed: false };

    const status = interrupts.interrupted
      ? 'stopped'
      : root.status === 'completed' || root.status === 'failed' || root.status === 'interrupted'
        ? root.status
        : 'stopped';
    const refusals = refusedCommands.report();
    if (refusals) context.stderr.write(terminalSafe(refusals));
    endRun(root, status);
    if (args.trace !== undefined)
      await writeTraceFile(args.trace, { taskManager, changes, rootId: root.id, ...(verdict ? { checks: verdict } : {}) }, context);
    if (interrupts.interrupted) return exitCodes.interrupted;
    if (status !== 'completed' || applied.failed) return exitCodes.failed;
    return exitCodes.completed;
  } catch (error) {
    if (error instanceof ConfigurationError && !runEnded && runTaskId === undefined) throw error; // nothing started: exit 2
    endRun(undefined, 'failed', errorMessage(error));
    context.stderr.write(`agent-team: ${terminalSafe(errorMessage(error))}\n`);
    return exitCodes.failed;
  } finally {
    interrupts.dispose();
    stallGuard.dispose();
    userChannel?.dispose();
    unsubscribe();
    await close();
  }
}

/** The checks on the run's pending proposals, with the run's id as its history names it. */
function checksAtEnd(
  root: TaskSnapshot,
  parts: Omit<RunChecksParts, 'rootId' | 'runId' | 'historyDirectory'> & { runLog: RunLog | undefined },
  output: { write(text: string): void },
): Promise<ChecksVerdictDetail | undefined> {
  const runId = parts.runLog?.runOf(root.id) ?? root.rootId;
  return runChecksAtEnd(
    {
      ...parts,
      rootId: root.rootId,
      runId,
      ...(parts.runLog ? { historyDirectory: path.join(parts.workspaceRoot, runHistoryDirectory) } : {}),
    },
    output,
  );
}

/** The named workflow and every sound one (for steps by name); a missing or invalid one is a usage error. */
async function workflowToRun(
  name: string,
  workspace: string,
  roles: RoleRegistry,
): Promise<{ workflow: WorkflowDefinition; workflows: Map<string, WorkflowDefinition> }> {
  const entries = await readWorkflows(workspace, roles);
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry) {
    const known = entries.map((candidate) => candidate.name).join(', ') || 'none: add .agent-team/workflows/<name>.yaml';
    throw new ConfigurationError(`There is no workflow "${name}". Workflows: ${known}.`);
  }
  if (!entry.workflow) {
    throw new ConfigurationError(
      `The workflow "${name}" cannot run:\n${entry.problems.map((problem) => `  ${formatWorkflowProblem(problem)}`).join('\n')}`,
    );
  }
  const workflows = new Map<string, WorkflowDefinition>();
  for (const sound of entries) if (sound.workflow) workflows.set(sound.name, sound.workflow);
  return { workflow: entry.workflow, workflows };
}

/** `--resume <runId>`: the run's proposals back, then its interrupted tasks going on; resolves with its root. */
async function resumeRun(
  runId: string,
  parts: {
    team: AgentTeam;
    taskManager: TaskManager;
    changes: ChangeSetRegistry;
    runLog: RunLog | undefined;
    warn: (message: string) => void;
  },
): Promise<{ task: TaskSnapshot }> {
  const contents = await parts.runLog?.read(runId);
  if (!contents)
    throw new ConfigurationError(
      `There is no run ${runId} in ${runHistoryDirectory}: it may have been removed by the history's retention. Start it again.`,
    );
  restoreProposals(parts.changes, contents, parts.warn);
  await parts.team.resume({ runId, source: resumeSourceOf(contents), awaitBackgroundTasks: true });
  return { task: await parts.taskManager.wait(runId) };
}

/** A prompt file's title and model for the delegation; nothing for a plain task. */
function promptFileRun(
  run: PromptCommandDelegation | undefined,
): Pick<PromptCommandDelegation, 'modelFor' | 'allowedTools'> & { description?: string } {
  if (!run) return {};
  return {
    description: run.description,
    ...(run.modelFor ? { modelFor: run.modelFor } : {}),
    ...(run.allowedTools ? { allowedTools: run.allowedTools } : {}),
  };
}

function printRunEnd(
  root: TaskSnapshot | undefined,
  status: string,
  error: string | undefined,
  stdout: { write(text: string): void },
): void {
  stdout.write(`\n${terminalSafe(root?.output?.trim() || '(no answer)')}\n`);
  const reason = error ?? root?.error ?? (root?.stopReason ? describeStopReason(root.stopReason) : undefined);
  if (status !== 'completed') stdout.write(`\n${status}${reason ? `: ${terminalSafe(reason)}` : ''}\n`);
  const usage = root?.treeUsage ?? { inputTokens: 0, outputTokens: 0 };
  const cost = root?.treeCost ? ` · cost ${formatCost(root.treeCost)}` : '';
  stdout.write(`\nTokens: ${usage.inputTokens} in, ${usage.outputTokens} out${cost}\n`);
}
