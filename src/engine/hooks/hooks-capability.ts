/**
 * Hooks, as a capability: the commands users configure in Claude Code's settings files run at the same
 * points of an agent's work here. PreToolUse sees each tool call before it runs and may refuse it (its
 * reason goes to the agent); PostToolUse sees each successful call (a formatter's version of an edited
 * file becomes the proposal); Stop and SubagentStop may send an agent back to work; UserPromptSubmit sees
 * the user's prompt first. The folder's own settings files' hooks run only where it is trusted (a folder
 * choosing programs to run is code execution); the user's own (`~/.claude/settings.json`) run regardless.
 * Where there is no OS sandbox none runs, the user's neither: a hook runs in the repository's folder, where
 * `npm test` or a formatter runs the repository's code as the user.
 */
import { endWhen, reviewAnswer } from '../agent/stop-condition-kinds.js';
import type { StopCondition } from '../agent/stop-conditions.js';
import type { ToolCallRequest } from '../agent/types.js';
import type { Capability, CapabilityGrant, CapabilityTask, PromptReview } from '../capabilities/capability.js';
import type { UserChannel } from '../conversation/user-channel.js';
import type { HookDefinition } from './hook-config.js';
import type { HookRunner } from './hook-process.js';
import { type LoadedHooks, loadHooks } from './hook-sources.js';
import { describeHook } from './hook-verdict.js';
import { edited, takeBack } from './hook-file-changes.js';
import { TaskHooks } from './task-hooks.js';

export interface HookSettings {
  /** The workspace root. */
  root: string;
  /** The user's home, for their own settings. Default: none read. */
  home?: string;
  /** False when the user turned hooks off (`agentTeam.hooks`, `--no-hooks`), read at each task's start. */
  enabled(): boolean;
  /** False where the folder is not trusted: its own settings files' hooks do not run (the user's do). */
  allowed(): boolean;
  /** Whether this hook of the folder's is one the user trusted (its settings are read anew at each task's start). Default: all are. */
  allowsHook?(hook: HookDefinition): boolean;
  /** Why no hook may run at all (no OS sandbox here); undefined where they may. Default: they may. */
  sandboxRefusal?(): Promise<string | undefined>;
  /** How the user trusts the folder, said when its hooks are held back. Default: a generic sentence. */
  howToTrust?: string;
}

/** Times in a row a Stop hook may send an agent back to work; then the agent finishes, and the transcript says why. */
export const maxStopHookContinuations = 5;

export function hooksCapability(settings: HookSettings, runner: HookRunner, channel?: UserChannel): Capability {
  return {
    name: 'hooks',
    async grant(task) {
      if (!settings.enabled()) return undefined;
      const loaded = await allowedHooks(settings);
      const notices = [
        ...(loaded.hooks.length > 0 ? [`Hooks: ${loaded.hooks.length} from ${loaded.sources.join(', ')}`] : []),
        ...loaded.problems,
      ];
      if (loaded.hooks.length === 0) return notices.length > 0 ? { notices } : undefined;
      return { notices, ...hookGrant(new TaskHooks(loaded.hooks, runner, task), task, channel, settings.root) };
    },
  };
}

/** The hooks that may run for a task, and why any that are configured do not. */
async function allowedHooks(settings: HookSettings): Promise<LoadedHooks> {
  const loaded = await loadHooks(settings.root, settings.home);
  const trusted = settings.allowed();
  const held = loaded.hooks.filter((hook) => !hook.source.startsWith('~/') && !(trusted && (settings.allowsHook?.(hook) ?? true)));
  let hooks = loaded.hooks.filter((hook) => !held.includes(hook));
  const problems = [...loaded.problems];
  if (held.length > 0) {
    const files = [...new Set(held.map((hook) => hook.source))].join(', ');
    const why = trusted ? 'changed since the user trusted this folder' : 'this folder is not trusted';
    problems.push(
      `Not run: ${held.length} hook${held.length === 1 ? '' : 's'} of ${files}: ${why} (${settings.howToTrust ?? 'the user must trust it first'})`,
    );
  }
  const noSandbox = hooks.length > 0 ? await settings.sandboxRefusal?.() : undefined;
  if (noSandbox !== undefined) {
    problems.push(`Not run: ${hooks.length} hook${hooks.length === 1 ? '' : 's'} (${hooks.map(describeHook).join('; ')}): ${noSandbox}`);
    hooks = [];
  }
  return { hooks, sources: loaded.sources.filter((source) => hooks.some((hook) => hook.source === source)), problems };
}

function hookGrant(hooks: TaskHooks, task: CapabilityTask, channel: UserChannel | undefined, root: string): CapabilityGrant {
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
