/**
 * The shape of a workflow file (`.agent-team/workflows/<name>.yaml`), as zod schemas: a workflow is a
 * `sequential`, `parallel` or `loop` group of steps; a step runs one agent (a role by name, or an agent
 * defined inline, kagent's shape: inline-agent.ts), a group inline, or another workflow by name.
 * Cross-step rules (placeholders, roles, references, cycles) are checked afterwards by
 * validate-workflows.ts, with the whole set of workflows and roles in view.
 *
 * A loop may declare `defaults: {key: text}`: the value a key written by one of the loop's steps has
 * before that step first runs, so a step can read the previous round's answer (`{critique}`) and get the
 * default in round 1 (without one, the empty text). See check-placeholders.ts for what a step may read.
 */
import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import type { InlineAgent } from './inline-agent.js';

export const workflowTypes = ['sequential', 'parallel', 'loop'] as const;
export type WorkflowType = (typeof workflowTypes)[number];

// Every schema here is built on its first use (the first workflow file read), not when the module loads
// (B5 in docs/performance.md): `agentStepSchema()`.

/** A key later steps can use as `{key}`: letters, digits, `_` and `-`, starting with a letter or `_`. */
const stateKey = builtOnFirstUse(() =>
  z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'must be a name of letters, digits, "_" or "-", starting with a letter or "_"')
    .refine((key) => key !== 'input', '"input" is the workflow\'s input and cannot be written by a step'),
);

const description = builtOnFirstUse(() => z.string().trim().min(1).max(200).optional());

/** Runs one agent, of a role by name or defined inline, with a prompt; `output_key` names its answer for later steps. */
export interface AgentStep {
  agent: string | InlineAgent;
  prompt: string;
  output_key?: string;
  description?: string;
}

/** Another workflow, run by name with `input` (default: this workflow's `{input}`) as its input. */
export interface WorkflowReferenceStep {
  workflow: string;
  input?: string;
  output_key?: string;
  description?: string;
}

/** A group of steps inline. */
export interface GroupStep {
  type: WorkflowType;
  steps: WorkflowStep[];
  /** Required for a loop: at most this many rounds. */
  max_iterations?: number;
  /** Loops only: each key's value before a step of the loop first writes it. Default: the empty text. */
  defaults?: Readonly<Record<string, string>>;
  output_key?: string;
  description?: string;
}

export type WorkflowStep = AgentStep | WorkflowReferenceStep | GroupStep;

export const agentStepSchema = builtOnFirstUse(() =>
  z.strictObject({
    // A role's name, or an inline agent, read field by field by readInlineAgent (parse-workflow-file.ts).
    agent: z.union([z.string().trim().min(1, 'names no role'), z.record(z.string(), z.unknown())], {
      error: 'must be a role name, or an agent defined inline (name, systemMessage, model, tools)',
    }),
    prompt: z.string().min(1, 'is empty: say what the agent should do'),
    output_key: stateKey().optional(),
    description: description(),
  }),
);

export const referenceStepSchema = builtOnFirstUse(() =>
  z.strictObject({
    workflow: z.string().trim().min(1, 'names no workflow'),
    input: z.string().optional(),
    output_key: stateKey().optional(),
    description: description(),
  }),
);

const maxIterations = builtOnFirstUse(() =>
  z.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100'),
);

/** A loop's `defaults`: text for keys its steps write (checked against them by check-placeholders.ts). */
const loopDefaults = builtOnFirstUse(() =>
  z.record(stateKey(), z.string({ error: 'must be text (quote it)' }).max(20_000, 'is longer than 20,000 characters')),
);

/** A group's own fields; its steps are checked one by one (parse-workflow-file.ts), each by its kind. */
export const groupStepSchema = builtOnFirstUse(() =>
  z.strictObject({
    type: z.enum(workflowTypes),
    steps: z.array(z.unknown()).min(1, 'is empty: a group needs at least one step'),
    max_iterations: maxIterations().optional(),
    defaults: loopDefaults().optional(),
    output_key: stateKey().optional(),
    description: description(),
  }),
);

/** The top of a workflow file: a group with a description. */
export const workflowFileSchema = builtOnFirstUse(() =>
  z.strictObject({
    description: z.string().trim().min(1, 'is empty: say what the workflow does').max(500),
    type: z.enum(workflowTypes),
    steps: z.array(z.unknown()).min(1, 'is empty: a workflow needs at least one step'),
    max_iterations: maxIterations().optional(),
    defaults: loopDefaults().optional(),
  }),
);

export interface WorkflowFile {
  description: string;
  type: WorkflowType;
  steps: WorkflowStep[];
  max_iterations?: number;
  /** When the workflow itself is a loop: as `GroupStep.defaults`. */
  defaults?: Readonly<Record<string, string>>;
}

/** A workflow as loaded: its name (the file name without `.yaml`), where it came from, and its body. */
export interface WorkflowDefinition extends WorkflowFile {
  name: string;
  /** Workspace-relative path of its file. */
  path: string;
  /** 1-based line of each step and step field, by its path (`steps[2]`, `steps[2].prompt`), for messages. */
  lines: ReadonlyMap<string, number>;
}

export function isAgentStep(step: WorkflowStep): step is AgentStep {
  return 'agent' in step;
}

export function isReferenceStep(step: WorkflowStep): step is WorkflowReferenceStep {
  return 'workflow' in step;
}

export function isGroupStep(step: WorkflowStep): step is GroupStep {
  return 'type' in step && 'steps' in step;
}
