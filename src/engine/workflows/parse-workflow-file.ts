/**
 * Reads one workflow file: YAML parsed strictly (duplicate keys are errors), every step checked by its
 * kind (an inline agent field by field: inline-agent.ts), and every problem reported with the file, the
 * line and the field (`steps[2].prompt`), so the user can go straight to it. Problems that need the other
 * workflows and the roles in view (placeholders, unknown roles, inline agents' names, cycles) are found
 * later by validate-workflows.ts.
 */
import { LineCounter, parseDocument } from 'yaml';
import type * as z from 'zod';
import {
  type WorkflowDefinition,
  type WorkflowFile,
  type WorkflowStep,
  agentStepSchema,
  groupStepSchema,
  referenceStepSchema,
  workflowFileSchema,
} from './workflow-definition.js';
import { type WorkflowProblem, fieldPath } from './workflow-problem.js';
import { describeIssue } from './describe-issue.js';
import { readInlineAgent } from './inline-agent.js';
import type { KnownTools } from '../roles/known-tools.js';
import { echoFreeYamlMessage } from '../workspace/echo-free-parse.js';

/** Workflow files larger than this are refused before parsing (a workflow is a page of YAML). */
export const maxWorkflowFileBytes = 256 * 1024;

export type ParsedWorkflow = { ok: true; workflow: WorkflowDefinition } | { ok: false; problems: WorkflowProblem[] };

type Segment = string | number;

/** Reads one workflow file; its inline agents may name the tools in `knownTools` (known-tools.ts). */
export function parseWorkflowFile(name: string, file: string, text: string, knownTools: KnownTools): ParsedWorkflow {
  if (text.length > maxWorkflowFileBytes) {
    return {
      ok: false,
      problems: [{ file, message: `is larger than ${maxWorkflowFileBytes / 1024} KiB; a workflow file should be a page of YAML` }],
    };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map((error) => ({
        file,
        line: lineCounter.linePos(error.pos[0]).line,
        message: `is not valid YAML: ${firstLine(error.message)}`,
      })),
    };
  }
  const lineOf = (path: readonly Segment[]): number | undefined => {
    for (let length = path.length; length >= 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, problems: [{ file, message: `is not valid YAML: ${firstLine(String(error))}` }] };
  }

  const problems: WorkflowProblem[] = [];
  const lines = new Map<string, number>();
  const report = (path: readonly Segment[], message: string) =>
    problems.push({ file, line: lineOf(path), field: fieldPath(path), message });
  const reportIssues = (base: readonly Segment[], issues: readonly z.core.$ZodIssue[]) => {
    for (const issue of issues) report([...base, ...(issue.path as Segment[])], describeIssue(issue));
  };

  const top = workflowFileSchema().safeParse(value ?? undefined, { reportInput: true });
  if (!top.success) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return {
        ok: false,
        problems: [{ file, line: 1, message: 'must be YAML fields (description, type, steps), not a list or a single value' }],
      };
    }
    reportIssues([], top.error.issues);
    return { ok: false, problems };
  }
  checkLoopFields(top.data, [], report);
  // Lines of nested fields later checks name: a loop's defaults, an inline agent's fields.
  const noteLines = (path: readonly Segment[], value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const key of Object.keys(value)) lines.set(fieldPath([...path, key]), lineOf([...path, key]) ?? 0);
  };
  noteLines(['defaults'], top.data.defaults);
  if (top.data.defaults !== undefined) lines.set('defaults', lineOf(['defaults']) ?? 0);

  const checkSteps = (steps: readonly unknown[], base: readonly Segment[]): WorkflowStep[] =>
    steps.map((raw, index) => {
      const path = [...base, 'steps', index];
      lines.set(fieldPath(path), lineOf(path) ?? 0);
      noteLines(path, raw);
      const kind = stepKind(raw);
      if (kind === undefined) {
        report(path, 'must be an agent step (agent, prompt), a group (type, steps) or a workflow by name (workflow)');
        return raw as WorkflowStep;
      }
      const schema = kind === 'agent' ? agentStepSchema() : kind === 'workflow' ? referenceStepSchema() : groupStepSchema();
      const parsed = schema.safeParse(raw, { reportInput: true });
      if (!parsed.success) {
        reportIssues(path, parsed.error.issues);
        return raw as WorkflowStep;
      }
      if (kind === 'agent') return agentStep(parsed.data as z.infer<ReturnType<typeof agentStepSchema>>, path);
      if (kind !== 'group') return parsed.data as WorkflowStep;
      const group = parsed.data as z.infer<ReturnType<typeof groupStepSchema>>;
      checkLoopFields(group, path, report);
      noteLines([...path, 'defaults'], group.defaults);
      return { ...group, steps: checkSteps(group.steps, path) };
    });

  const agentStep = (step: z.infer<ReturnType<typeof agentStepSchema>>, path: readonly Segment[]): WorkflowStep => {
    if (typeof step.agent === 'string') return step as WorkflowStep;
    noteLines([...path, 'agent'], step.agent);
    const agent = readInlineAgent(step.agent, file, knownTools, (field, message) => report([...path, 'agent', ...field], message));
    // Without an agent, its problems are reported, so the workflow is refused and this step never runs.
    return { ...step, agent: agent ?? { name: '', systemMessage: '', path: file } };
  };

  const workflow: WorkflowFile = { ...top.data, steps: checkSteps(top.data.steps, []) };
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, workflow: { ...workflow, name, path: file, lines } };
}

function stepKind(raw: unknown): 'agent' | 'workflow' | 'group' | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  if ('agent' in raw) return 'agent';
  if ('workflow' in raw) return 'workflow';
  if ('type' in raw || 'steps' in raw) return 'group';
  return undefined;
}

function checkLoopFields(
  group: { type: string; max_iterations?: number; defaults?: object },
  path: readonly Segment[],
  report: (path: readonly Segment[], message: string) => void,
): void {
  if (group.type === 'loop' && group.max_iterations === undefined) {
    report([...path, 'type'], 'a loop needs max_iterations (how many rounds at most), e.g. max_iterations: 3');
  }
  if (group.type !== 'loop' && group.max_iterations !== undefined) {
    report([...path, 'max_iterations'], `only a loop has max_iterations; this group is ${group.type}`);
  }
  if (group.type !== 'loop' && group.defaults !== undefined) {
    report(
      [...path, 'defaults'],
      `only a loop has defaults (for keys its steps write, read in the round before); this group is ${group.type}`,
    );
  }
}

/** The parser's first line, without the text it quotes: a workflow file may be a link to a secret. */
function firstLine(text: string): string {
  return echoFreeYamlMessage(text);
}
