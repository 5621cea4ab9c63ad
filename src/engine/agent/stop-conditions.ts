/**
 * How a run ends, in one list (as vercel/ai's `stopWhen`): after each step the loop asks the conditions in
 * order, and the first that holds decides. A condition says when it is asked (`on`): after a step with tool
 * calls, after an answer without any, or, for a limit, whenever the run would go on. Capabilities add
 * theirs through their grant (`CapabilityGrant.stopWhen`); the loop adds its own (stop-condition-kinds.ts).
 */
import type { RunEnding } from './tool-execution.js';

/** One step as the conditions see it. */
export interface StopStep {
  /** The loop's step, from 1 (a step whose request was retried after a compaction still counts once). */
  turn: number;
  /** The latest answer's text. */
  answer: string;
  /** The step's tool results; empty for an answer without tool calls. */
  toolCalls: readonly { ending?: RunEnding }[];
  signal: AbortSignal;
  /** Compacts the conversation now with that focus (a chat's `/compact`); absent when nothing compacts. */
  compact?(focus: string): Promise<void>;
}

/** The run ends: completed (with `output`, default the latest answer) or at its turn limit (`error`). */
export interface RunStop {
  status: 'completed' | 'max-turns';
  output?: string;
  /** Told to the user in the transcript as the run ends. */
  notice?: string;
  error?: string;
  endedBy?: { toolName: string; input: unknown };
}

/** What a condition that holds decides: an end, the agent sent back with a notice, or the user's reply. */
export type StopDecision = { stop: RunStop } | { resume: string } | { reply: string };

export interface StopCondition {
  /** Names it in the outcome (the reason reported) and in tests. */
  readonly name: string;
  /** `tool-calls`: after a step with tool calls; `answer`: after one without; `going-on`: whenever the run would go on. */
  readonly on: 'tool-calls' | 'answer' | 'going-on';
  /** True for a condition that waits for the user: asked after every other `answer` condition, so a review speaks first. */
  readonly waitsForUser?: boolean;
  check(step: StopStep): StopDecision | undefined | Promise<StopDecision | undefined>;
}

/** Where a step leaves the run, and which condition said so (`by`; `undefined` when none held). */
export type StepOutcome =
  { kind: 'stopped'; by?: string } | { kind: 'end'; by: string; stop: RunStop; goOn?: GoOn } | { kind: 'go-on'; by?: string; goOn?: GoOn };

/** What the run goes on with: a notice for the agent, or the user's next message. */
export type GoOn = { resume: string } | { reply: string };

/**
 * Asks the conditions about one step, in order; the first that holds wins. After each condition asked that
 * did not end the run, a stopped signal stops it (a stop while a hook or the user was awaited); a condition
 * that throws once the run was stopped stops it too. When the run would go on, the `going-on` conditions (the
 * turn limit) are asked last: a run at its limit ends there even when a condition sent it back to work.
 */
export async function decideStep(conditions: readonly StopCondition[], step: StopStep): Promise<StepOutcome> {
  const phase = step.toolCalls.length > 0 ? 'tool-calls' : 'answer';
  let goOn: GoOn | undefined;
  let by: string | undefined;
  for (const condition of ordered(conditions).filter((each) => each.on === phase)) {
    const decision = await asked(condition, step);
    if (decision === 'stopped') return { kind: 'stopped', by: condition.name };
    if (decision && 'stop' in decision) return { kind: 'end', by: condition.name, stop: decision.stop };
    if (step.signal.aborted) return { kind: 'stopped', by: condition.name };
    if (decision) {
      goOn = decision;
      by = condition.name;
      break;
    }
  }
  if (phase === 'answer' && goOn === undefined) return { kind: 'end', by: 'answered', stop: { status: 'completed' } };
  for (const condition of conditions.filter((each) => each.on === 'going-on')) {
    const decision = await asked(condition, step);
    if (decision === 'stopped') return { kind: 'stopped', by: condition.name };
    if (decision && 'stop' in decision) return { kind: 'end', by: condition.name, stop: decision.stop, ...(goOn ? { goOn } : {}) };
  }
  return { kind: 'go-on', ...(by === undefined ? {} : { by }), ...(goOn ? { goOn } : {}) };
}

/** The list's order, except that the conditions waiting for the user come after the others (stable). */
function ordered(conditions: readonly StopCondition[]): StopCondition[] {
  return [...conditions.filter((each) => !each.waitsForUser), ...conditions.filter((each) => each.waitsForUser)];
}

async function asked(condition: StopCondition, step: StopStep): Promise<StopDecision | undefined | 'stopped'> {
  try {
    return await condition.check(step);
  } catch (error) {
    if (step.signal.aborted) return 'stopped';
    throw error;
  }
}
