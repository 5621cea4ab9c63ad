/**
 * Which keys each step can read, so that a `{key}` with no value to give is an error when the file is
 * read, never a surprise halfway through a run:
 * - in a sequence (and a loop's round) a step sees `{input}`, what was there before its group, and what
 *   the steps before it wrote;
 * - parallel branches see only what was there before their group (their contexts are isolated); what
 *   they write is there after it;
 * - inside a loop a step also sees every key the loop's own steps write (nested groups' included): the
 *   value the previous round left, or, before the step that writes it has first run, the loop's declared
 *   default (`defaults: {critique: "none yet"}`) or else the empty text. This is what lets a producer
 *   read the critic's `{critique}` of round 1 in round 2 (the evaluator-optimizer pattern);
 * - a workflow run by name sees only its own `{input}`.
 * So a key written nowhere, or only after the loop that reads it, is refused. A loop's `defaults` must
 * name keys its own steps write, and not ones that already have a value when it starts. An inline agent's
 * `systemMessage` is sent as written (ADK would fill it; here state goes in the prompt), so a key of the
 * workflow in it is refused rather than sent as `{draft}`.
 */
import { placeholdersOf } from './prompt-template.js';
import { keysWrittenIn, walkSteps } from './walk-steps.js';
import { type GroupStep, type WorkflowDefinition, isAgentStep, isGroupStep, isReferenceStep } from './workflow-definition.js';

type Report = (field: string, message: string) => void;
type Group = Pick<GroupStep, 'type' | 'steps' | 'defaults'>;

export function checkPlaceholders(workflow: WorkflowDefinition, report: Report): void {
  const producers = new Map<string, string>();
  walkSteps(workflow.steps, 'steps', (step, path) => {
    if (step.output_key !== undefined && !producers.has(step.output_key)) producers.set(step.output_key, path);
  });

  const check = (template: string | undefined, field: string, visible: ReadonlySet<string>, inLoop: boolean) => {
    for (const key of placeholdersOf(template ?? '')) {
      if (visible.has(key)) continue;
      const producer = producers.get(key);
      if (producer === undefined) report(field, `{${key}} is not produced by ${inLoop ? 'any step' : 'an earlier step'}`);
      else if (inLoop)
        report(
          field,
          `{${key}} is produced by ${producer}, which this step cannot see: a step sees what earlier steps wrote and, inside a loop, what the loop's own steps wrote in the previous round`,
        );
      else
        report(
          field,
          `{${key}} is produced by ${producer}, which this step cannot see (only earlier steps, and not parallel branches, are visible)`,
        );
    }
  };

  const checkSystemMessage = (systemMessage: string, field: string) => {
    for (const key of placeholdersOf(systemMessage)) {
      if (key === 'input' || producers.has(key))
        report(field, `{${key}} is not filled in a system message, which is sent as written; put it in the step's prompt`);
    }
  };

  /** `incoming`: keys with a value when the group starts; `carried`: keys enclosing loops' steps write. */
  const visitGroup = (
    group: Group,
    groupPath: string,
    incoming: ReadonlySet<string>,
    carried: ReadonlySet<string>,
    inLoop: boolean,
  ): Set<string> => {
    const loopKeys = group.type === 'loop' ? keysWrittenIn(group.steps) : [];
    if (group.type === 'loop') checkDefaults(group, groupPath, incoming, carried, loopKeys, producers, report);
    const carriedHere = new Set([...carried, ...loopKeys]);
    const inLoopHere = inLoop || group.type === 'loop';
    const produced = new Set<string>(incoming);
    group.steps.forEach((step, index) => {
      const path = `${groupPath === '' ? '' : `${groupPath}.`}steps[${index}]`;
      const before = group.type === 'parallel' ? incoming : produced;
      const visible = new Set([...before, ...carriedHere]);
      if (isAgentStep(step)) check(step.prompt, `${path}.prompt`, visible, inLoopHere);
      if (isAgentStep(step) && typeof step.agent !== 'string') checkSystemMessage(step.agent.systemMessage, `${path}.agent.systemMessage`);
      else if (isReferenceStep(step)) check(step.input, `${path}.input`, visible, inLoopHere);
      else if (isGroupStep(step)) for (const key of visitGroup(step, path, before, carriedHere, inLoopHere)) produced.add(key);
      if (step.output_key !== undefined) produced.add(step.output_key);
    });
    return produced;
  };
  visitGroup(workflow, '', new Set(['input']), new Set(), false);
}

function checkDefaults(
  loop: Group,
  loopPath: string,
  incoming: ReadonlySet<string>,
  carried: ReadonlySet<string>,
  loopKeys: readonly string[],
  producers: ReadonlyMap<string, string>,
  report: Report,
): void {
  for (const key of Object.keys(loop.defaults ?? {})) {
    const field = `${loopPath === '' ? '' : `${loopPath}.`}defaults.${key}`;
    if (!loopKeys.includes(key)) {
      report(
        field,
        `no step of this loop writes {${key}}: a default is the value of a key the loop's steps write, until the step that writes it first runs`,
      );
    } else if (carried.has(key)) {
      report(
        field,
        `{${key}} is written inside an enclosing loop too, which gives it its value before this loop starts; declare the default on the outermost loop`,
      );
    } else if (incoming.has(key)) {
      report(
        field,
        `{${key}} already has a value when this loop starts (written by ${producers.get(key) ?? 'an earlier step'}), so the default would never be used`,
      );
    }
  }
}
