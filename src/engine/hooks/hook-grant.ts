/**
 * What the hooks give one task: PreToolUse reviews its tool calls, PostToolUse hears the finished ones,
 * Stop or SubagentStop reviews its answer and PreCompact hears of a compaction (stop conditions and turn
 * points of its grant), UserPromptSubmit reviews the user's prompt; any of them may end the run.
 */
import { endWhen, reviewAnswer } from '../agent/stop-condition-kinds.js';
import type { StopCondition } from '../agent/stop-conditions.js';
import type { ToolCallRequest } from '../agent/types.js';
import type { CapabilityGrant, CapabilityTask, PromptReview } from '../capabilities/capability.js';
import type { UserChannel } from '../conversation/user-channel.js';
import { describeHook } from './hook-verdict.js';
import { edited, takeBack } from './hook-file-changes.js';
import type { TaskHooks } from './task-hooks.js';

/** Times in a row a Stop hook may send an agent back to work; then the agent finishes, and the transcript says why. */
export const maxStopHookContinuations = 5;

export function hookGrant(hooks: TaskHooks, task: CapabilityTask, channel: UserChannel | undefined, root: string): CapabilityGrant {
  let endRequest: string | undefined;
  let stopContinuations = 0;
  const stopWhen: StopCondition[] = [endWhen('hooks-end', () => endRequest)];
  const grant: CapabilityGrant = { stopWhen };

  if (hooks.has('PreToolUse')) {
    grant.reviewToolCalls = async (calls, signal) => {
      const refused = new Map<string, string>();
      for (const call of calls) {
        const outcomes = await hooks.run(
          'PreToolUse',
          namesOf(call.toolName),
          { tool_name: call.toolName, tool_input: call.input ?? {}, tool_use_id: call.toolCallId },
          signal,
        );
        for (const { hook, verdict } of outcomes) {
          endRequest ??= verdict.end;
          if (verdict.block !== undefined)
            refused.set(
              call.toolCallId,
              `Not run: a PreToolUse hook (${describeHook(hook)}) blocked this ${call.toolName} call: ${verdict.block}`,
            );
          else if (verdict.end !== undefined)
            refused.set(call.toolCallId, `Not run: a PreToolUse hook (${describeHook(hook)}) ended your work: ${verdict.end}`);
          else if (verdict.ask !== undefined && !(await userAllows(task, channel, call, verdict.ask)))
            refused.set(
              call.toolCallId,
              `Not run: the user did not allow this ${call.toolName} call, which a hook asked them about (${verdict.ask}).`,
            );
          if (refused.has(call.toolCallId)) break;
        }
      }
      return refused;
    };
  }

  if (hooks.has('PostToolUse')) {
    const mayPropose = task.agent.tools.includes('Edit') || task.agent.tools.includes('Write');
    grant.afterToolCalls = async (calls, signal) => {
      const notices: string[] = [];
      for (const call of calls.filter((finished) => !finished.isError)) {
        const collect = mayPropose && edited(call, root) !== undefined;
        const outcomes = await hooks.run(
          'PostToolUse',
          namesOf(call.toolName),
          { tool_name: call.toolName, tool_input: call.input ?? {}, tool_response: call.output, tool_use_id: call.toolCallId },
          signal,
          { collectChanges: collect },
        );
        for (const { hook, verdict, changed } of outcomes) {
          endRequest ??= verdict.end;
          const said = [verdict.block, verdict.context].filter((text): text is string => text !== undefined);
          if (said.length > 0)
            notices.push(`A PostToolUse hook (${describeHook(hook)}) on your ${call.toolName} call says:\n${said.join('\n\n')}`);
          if (changed && changed.length > 0) notices.push(...(await takeBack(task, hook, call, changed, root, signal)));
        }
      }
      return notices;
    };
  }

  const stopEvent = task.agent.depth === 0 ? 'Stop' : 'SubagentStop';
  if (hooks.has(stopEvent)) {
    const review = async (answer: string, signal: AbortSignal): Promise<string | undefined> => {
      const input = { stop_hook_active: stopContinuations > 0, last_assistant_message: answer };
      for (const { hook, verdict } of await hooks.run(stopEvent, [task.agent.role], input, signal)) {
        endRequest ??= verdict.end;
        if (verdict.block === undefined || verdict.end !== undefined) continue;
        if (stopContinuations >= maxStopHookContinuations) {
          task.context.appendTranscript({
            type: 'notice',
            text: `The ${stopEvent} hook ${describeHook(hook)} blocked again; the agent finishes anyway after ${maxStopHookContinuations} times in a row.`,
          });
          return undefined;
        }
        stopContinuations += 1;
        return `A ${stopEvent} hook (${describeHook(hook)}) does not let you finish yet:\n${verdict.block}`;
      }
      stopContinuations = 0;
      return undefined;
    };
    stopWhen.push(reviewAnswer(`hooks-${stopEvent}`, review));
  }

  // Claude Code's PreCompact: told before the conversation is summarised; its matcher is `manual` or `auto`.
  if (hooks.has('PreCompact')) {
    grant.beforeCompaction = async (trigger, signal) => {
      const name = trigger === 'manual' ? 'manual' : 'auto';
      for (const { verdict } of await hooks.run('PreCompact', [name], { trigger: name, custom_instructions: '' }, signal))
        endRequest ??= verdict.end;
    };
  }

  // The prompt is the user's only for a run's root agent (a run, a follow-up, a chat); a subagent's is its parent's.
  if (task.agent.depth === 0 && hooks.has('UserPromptSubmit')) {
    grant.reviewUserPrompt = async (prompt, signal): Promise<PromptReview> => {
      const context: string[] = [];
      for (const { hook, verdict } of await hooks.run('UserPromptSubmit', [], { prompt }, signal)) {
        if (verdict.block !== undefined || verdict.end !== undefined)
          return { refused: `the UserPromptSubmit hook ${describeHook(hook)} blocked it: ${verdict.block ?? verdict.end}`, context };
        if (verdict.context !== undefined) context.push(verdict.context);
      }
      return { context };
    };
  }
  return grant;
}

/** Claude Code's old name for the tool that starts a subagent matches ours too. */
function namesOf(toolName: string): string[] {
  return toolName === 'Agent' ? ['Agent', 'Task'] : [toolName];
}

/** A hook's "ask": the user decides, on the task's row; nobody to ask means no. */
async function userAllows(task: CapabilityTask, channel: UserChannel | undefined, call: ToolCallRequest, reason: string): Promise<boolean> {
  if (!channel) return false;
  const text = `A hook asks whether this ${call.toolName} call may run: ${reason}\n\n${JSON.stringify(call.input ?? {}).slice(0, 2000)}\n\nAnswer "yes" to allow it; anything else refuses it.`;
  const answer = await task.context
    .waitForUser(() => channel.ask({ taskId: task.taskId, role: task.agent.role, kind: 'question', text }, task.context.signal))
    .catch(() => undefined);
  return answer !== undefined && /^\s*(?:y|yes|allow)\b/i.test(answer);
}
