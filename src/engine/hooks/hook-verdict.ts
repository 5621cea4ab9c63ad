/**
 * What a hook's run means, by Claude Code's rules: exit 0 lets things go on (its stdout may be a JSON
 * decision); exit 2 blocks, with stderr as the reason; any other ending (another code, a timeout, a hook
 * that could not start) is an error shown to the user that blocks nothing. What a hook prints that is
 * neither a decision nor plain text (broken JSON, fields this engine does not know) is named, not guessed.
 */
import type { HookDefinition, HookEventName } from './hook-config.js';
import type { HookRunResult } from './hook-process.js';

/** Text from a hook given to the model at most; a longer reason is cut with a note. */
export const maxHookTextBytes = 16 * 1024;

export interface HookVerdict {
  /**
   * The hook blocks, with its reason: PreToolUse refuses the call; PostToolUse tells the agent; Stop and
   * SubagentStop send the agent back to work; UserPromptSubmit refuses the prompt.
   */
  block?: string;
  /** PreToolUse's `ask`: the user decides, with this reason. */
  ask?: string;
  /** Context for the model (`additionalContext`; UserPromptSubmit's plain stdout). */
  context?: string;
  /** `continue: false`: the agent's run ends, with this for the user. */
  end?: string;
  /** For the user only (`systemMessage`, plain stdout shown in the transcript). */
  message?: string;
  /** How it ended, for the transcript: "exit 0 in 0.2 s", "exit 1 in 0.1 s, not blocking". */
  ending: string;
  /** What in its output was not understood, for the transcript. */
  problems: string[];
}

const knownFields = new Set(['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput']);
const knownSpecificFields = new Set(['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'additionalContext']);

export function hookVerdict(event: HookEventName, result: HookRunResult): HookVerdict {
  const seconds = `${(result.durationMs / 1000).toFixed(1)} s`;
  if (result.error !== undefined) return { ending: `could not run (${result.error}), not blocking`, problems: [] };
  if (result.ended === 'timeout') return { ending: `timed out after ${seconds} and was ended, not blocking`, problems: [] };
  if (result.ended === 'stopped') return { ending: `stopped with its task after ${seconds}`, problems: [] };
  if (result.exitCode === 2)
    return { block: capped(result.stderr.trim() || 'the hook gave no reason'), ending: `exit 2 in ${seconds}: blocks`, problems: [] };
  if (result.exitCode !== 0) {
    const code = result.exitCode === null ? 'ended by a signal' : `exit ${result.exitCode}`;
    const detail = firstLine(result.stderr);
    return { ending: `${code} in ${seconds}, not blocking (only exit 2 blocks)${detail ? `: ${detail}` : ''}`, problems: [] };
  }
  return { ...stdoutVerdict(event, result), ending: `exit 0 in ${seconds}` };
}

function stdoutVerdict(event: HookEventName, result: HookRunResult): Omit<HookVerdict, 'ending'> {
  const stdout = result.stdout.trim();
  if (stdout === '') return { problems: [] };
  if (!stdout.startsWith('{')) {
    // Claude Code gives a UserPromptSubmit hook's plain output to the model; other events' only to the user.
    return event === 'UserPromptSubmit' ? { context: capped(stdout), problems: [] } : { message: capped(stdout), problems: [] };
  }
  let output: unknown;
  try {
    output = JSON.parse(stdout);
  } catch {
    const why = result.stdoutCut ? 'it was cut at 64 KiB' : 'it is not valid JSON';
    return { problems: [`its output looks like JSON but is ignored: ${why}`] };
  }
  if (typeof output !== 'object' || output === null || Array.isArray(output))
    return { problems: ['its JSON output is not an object; ignored'] };
  return decisionOf(event, output as Record<string, unknown>);
}

function decisionOf(event: HookEventName, output: Record<string, unknown>): Omit<HookVerdict, 'ending'> {
  const verdict: Omit<HookVerdict, 'ending'> = { problems: [] };
  const unknown = Object.keys(output).filter((key) => !knownFields.has(key));
  const specific = isRecord(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  unknown.push(
    ...Object.keys(specific)
      .filter((key) => !knownSpecificFields.has(key))
      .map((key) => `hookSpecificOutput.${key}`),
  );
  if (unknown.length > 0) verdict.problems.push(`not understood, ignored: ${unknown.join(', ')}`);
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? capped(value.trim()) : undefined);

  if (output.continue === false) verdict.end = text(output.stopReason) ?? 'a hook ended the run';
  const systemMessage = text(output.systemMessage);
  if (systemMessage !== undefined && output.suppressOutput !== true) verdict.message = systemMessage;
  const context = text(specific.additionalContext);
  if (context !== undefined) verdict.context = context;

  const reason = text(output.reason);
  if (event === 'PreToolUse') {
    const permission = specific.permissionDecision;
    const permissionReason = text(specific.permissionDecisionReason) ?? reason;
    if (permission === 'deny' || output.decision === 'block') verdict.block = permissionReason ?? 'the hook denied it';
    else if (permission === 'ask') verdict.ask = permissionReason ?? 'the hook asks the user to decide';
    else if (permission === 'allow' || output.decision === 'approve')
      verdict.problems.push('"allow" lets the call go on; it does not skip the approval a command needs here');
    else if (permission !== undefined) verdict.problems.push(`permissionDecision "${String(permission)}" not understood; ignored`);
  } else if (output.decision === 'block') {
    verdict.block = reason ?? 'the hook blocked it';
  } else if (output.decision !== undefined) {
    verdict.problems.push(`decision "${String(output.decision)}" not understood; ignored`);
  }
  return verdict;
}

/** One line naming a hook for the transcript: its event, matcher, command and file. */
export function describeHook(hook: HookDefinition): string {
  const command = hook.command.length > 120 ? `${hook.command.slice(0, 117)}…` : hook.command;
  const matcher = hook.matcherText === '' ? '' : ` [${hook.matcherText}]`;
  return `${hook.event}${matcher} \`${command}\` (${hook.source})`;
}

function capped(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxHookTextBytes) return text;
  return `${bytes
    .subarray(0, maxHookTextBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '')}\n[cut: the hook wrote ${bytes.length} bytes; the first ${maxHookTextBytes} are given]`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
