/**
 * The hooks of one task: for an event, the hooks whose matcher takes the name, run one after another (one
 * scratch copy serves them all, where parallel runs would each need a copy of their own), each run written
 * to the task's transcript, so the detail view and the trace show what ran and what it decided.
 */
import type { CapabilityTask } from '../capabilities/capability.js';
import { type HookDefinition, type HookEventName, matches } from './hook-config.js';
import type { HookChangedFile, HookRunner } from './hook-process.js';
import { describeHook, type HookVerdict, hookVerdict } from './hook-verdict.js';

export interface HookOutcome {
  hook: HookDefinition;
  verdict: HookVerdict;
  /** The files it changed in the scratch copy, when asked for. */
  changed?: HookChangedFile[];
}

export class TaskHooks {
  constructor(
    private readonly hooks: readonly HookDefinition[],
    private readonly runner: HookRunner,
    private readonly task: CapabilityTask,
  ) {}

  has(event: HookEventName): boolean {
    return this.hooks.some((hook) => hook.event === event);
  }

  /** The hooks of `event` that `names` match (a tool's name and its other names); none when no name is given and the hook has a matcher. */
  matching(event: HookEventName, names: readonly string[]): HookDefinition[] {
    return this.hooks.filter((hook) => hook.event === event && (hook.matcher === undefined || names.some((name) => matches(hook, name))));
  }

  /** Runs each hook in turn with the event's JSON and writes each run to the transcript. */
  async run(
    event: HookEventName,
    names: readonly string[],
    input: Record<string, unknown>,
    signal: AbortSignal,
    options: { collectChanges?: boolean } = {},
  ): Promise<HookOutcome[]> {
    const outcomes: HookOutcome[] = [];
    const common = {
      session_id: this.task.rootId,
      hook_event_name: event,
      permission_mode: 'default',
      ...(this.task.agent.depth > 0 ? { agent_id: this.task.taskId, agent_type: this.task.agent.role } : {}),
    };
    for (const hook of this.matching(event, names)) {
      if (signal.aborted) break;
      const result = await this.runner.run({
        hook,
        input: { ...common, ...input },
        rootId: this.task.rootId,
        proposals: this.task.files.proposals,
        signal,
        ...(options.collectChanges ? { collectChanges: true } : {}),
      });
      const verdict = hookVerdict(event, result);
      this.task.context.appendTranscript({ type: 'notice', text: this.task.redact(transcriptLine(hook, verdict)) });
      outcomes.push({ hook, verdict, ...(result.changed ? { changed: result.changed } : {}) });
    }
    return outcomes;
  }
}

/** "Hook PreToolUse [Edit] `./guard.sh` (.claude/settings.json): exit 2 in 0.1 s: blocks. Reason: …". */
function transcriptLine(hook: HookDefinition, verdict: HookVerdict): string {
  const parts = [`Hook ${describeHook(hook)}: ${verdict.ending}.`];
  if (verdict.block !== undefined) parts.push(`Reason: ${verdict.block}`);
  if (verdict.ask !== undefined) parts.push(`Asks the user: ${verdict.ask}`);
  if (verdict.end !== undefined) parts.push(`Ends the run: ${verdict.end}`);
  if (verdict.context !== undefined) parts.push(`Adds context for the agent (${verdict.context.length} characters).`);
  if (verdict.message !== undefined) parts.push(`Says: ${verdict.message}`);
  for (const problem of verdict.problems) parts.push(`(${problem})`);
  return parts.join(' ');
}
