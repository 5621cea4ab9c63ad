/**
 * `agent-team run`: one delegation, start to end, on a terminal or as JSON Lines. Ctrl-C stops every task
 * (children included), prints what they had, and exits 130.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../engine/errors.js';
import { applyChangeSet } from '../engine/changes/apply.js';
import { ChangeSetRegistry } from '../engine/changes/registry.js';
import { createModel } from '../engine/model/create-model.js';
import { TaskManager } from '../engine/tasks/task-manager.js';
import { isTerminal, type TaskSnapshot } from '../engine/tasks/types.js';
import { AgentTeam } from '../engine/team/agent-team.js';
import { NodeRoleFileSource } from '../engine/team/roles/node-role-file-source.js';
import { RoleRegistry } from '../engine/team/roles/role-registry.js';
import { formatRoleDiagnostic } from '../engine/team/roles/format-diagnostic.js';
import { createWorkspaceToolbox, describeTaskChanges } from '../engine/team/workspace-toolbox.js';
import { NodeWorkspace } from '../engine/workspace/node-workspace.js';
import type { RunArguments } from './arguments.js';
import { printChanges, printApplyReport } from './changes-output.js';
import { exitCodes } from './exit-codes.js';
import { type CliJsonEvent, JsonEventMapper } from './json-events.js';
import { cliModelSettings } from './model-settings.js';
import { TerminalView } from './terminal-view.js';

export interface RunContext {
  stdout: { write(text: string): void; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): void };
  environment: NodeJS.ProcessEnv;
  /** Where SIGINT is heard; tests pass an EventEmitter. */
  process: { on(event: 'SIGINT', listener: () => void): unknown; off(event: 'SIGINT', listener: () => void): unknown };
}

export async function runCommand(args: RunArguments, context: RunContext): Promise<number> {
  const settings = cliModelSettings(args, context.environment);
  // Fails fast (exit 2) on a missing key or a bad base URL, before anything starts.
  const model = createModel(settings, { environment: context.environment });

  const workspace = new NodeWorkspace(await existingDirectory(args.workspace));
  const roles = new RoleRegistry({ source: new NodeRoleFileSource(workspace.root) });
  const { diagnostics } = await roles.load();
  for (const diagnostic of diagnostics) context.stderr.write(`${formatRoleDiagnostic(diagnostic)}\n`);

  const changes = new ChangeSetRegistry();
  const taskManager = new TaskManager();
  const team = new AgentTeam({
    taskManager,
    roles,
    toolbox: createWorkspaceToolbox({ workspace, changes }),
    modelFor: (_role, override) => (override ? createModel({ ...settings, model: override }, { environment: context.environment }) : model),
    describeChanges: (taskId) => describeTaskChanges(changes, taskId),
    environmentNote: `Workspace root: ${workspace.root}. Paths are relative to it.`,
  });

  const emit = (event: CliJsonEvent) => context.stdout.write(`${JSON.stringify(event)}\n`);
  const mapper = new JsonEventMapper();
  const view = new TerminalView(args.json ? context.stderr : context.stdout);
  const unsubscribe = taskManager.onEvent((event) => {
    if (args.json) for (const mapped of mapper.map(event)) emit(mapped);
    else view.handle(event);
  });

  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) return;
    interrupted = true;
    context.stderr.write('\nagent-team: stopping every task…\n');
    void taskManager.stopAll({ kind: 'user' });
  };
  context.process.on('SIGINT', onInterrupt);

  try {
    const started = await team.delegate({ prompt: args.task, role: args.agent, mode: 'foreground', awaitBackgroundTasks: true });
    // Subagents still running (only possible after a stop or failure of the root) are waited out too.
    await waitForTree(taskManager, started.task.rootId);
    const root = taskManager.get(started.task.id) ?? started.task;
    view.finish();

    const proposed = changes.list().filter((changeSet) => changeSet.snapshot().files.length > 0);
    if (args.json) {
      for (const changeSet of proposed) {
        for (const file of changeSet.snapshot().files) emit({ type: 'change-proposed', taskId: changeSet.taskId, path: file.path, diff: file.diff });
      }
    } else {
      printRoot(root, context.stdout);
      printChanges(proposed, context.stdout, args.apply);
    }

    let applyFailed = false;
    if (args.apply && !interrupted) {
      for (const changeSet of proposed) {
        changeSet.accept();
        const report = await applyChangeSet(changeSet, workspace);
        applyFailed ||= report.files.some((file) => file.outcome !== 'applied');
        printApplyReport(report, args.json ? context.stderr : context.stdout);
      }
    }

    const status = interrupted ? 'stopped' : root.status === 'completed' ? 'completed' : root.status === 'failed' ? 'failed' : 'stopped';
    if (args.json) emit({ type: 'run-end', status, output: root.output ?? '', usage: root.treeUsage });
    if (interrupted) return exitCodes.interrupted;
    if (status !== 'completed' || applyFailed) return exitCodes.failed;
    return exitCodes.completed;
  } finally {
    context.process.off('SIGINT', onInterrupt);
    unsubscribe();
    roles.dispose();
    await taskManager.close();
  }
}

async function existingDirectory(directory: string): Promise<string> {
  const absolute = path.resolve(directory);
  const info = await stat(absolute).catch(() => undefined);
  if (!info?.isDirectory()) throw new ConfigurationError(`--workspace ${directory}: no such folder`);
  return absolute;
}

async function waitForTree(taskManager: TaskManager, rootId: string): Promise<void> {
  for (;;) {
    const open = taskManager.list().filter((task) => task.rootId === rootId && !isTerminal(task.status));
    if (open.length === 0) return;
    await Promise.all(open.map((task) => taskManager.wait(task.id)));
  }
}

function printRoot(root: TaskSnapshot, stdout: { write(text: string): void }): void {
  const usage = root.treeUsage;
  stdout.write(`\n${root.output?.trim() || '(no answer)'}\n`);
  if (root.status !== 'completed') stdout.write(`\n${root.status}${root.error ? `: ${root.error}` : ''}\n`);
  stdout.write(`\nTokens: ${usage.inputTokens} in, ${usage.outputTokens} out\n`);
}
