/** A loop's state across rounds: what a step may read (validation), and what it gets (a run). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import type { WorkflowDefinition } from '../../src/engine/workflows/workflow-definition.js';
import { type WorkflowEntry, loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { formatWorkflowProblem } from '../../src/engine/workflows/workflow-problem.js';
import { workflowRoles } from '../../src/engine/workflows/workflow-roles.js';
import { MemoryRoleFiles, type TeamHarness, createTeamHarness, lastMessageText } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const { toolCall } = ScriptedModel;
const evaluatorOptimizer = readFileSync(path.join(import.meta.dirname, 'fixtures', 'evaluator-optimizer.yaml'), 'utf8');
const roles = ['researcher', 'reviewer', 'refactorer'];

async function problems(files: Record<string, string>): Promise<Map<string, string[]>> {
  const source = new MemoryRoleFiles();
  for (const [name, text] of Object.entries(files)) source.files.set(`.agent-team/workflows/${name}`, text);
  const entries: WorkflowEntry[] = await loadWorkflows(source, {
    hasRole: (name) => roles.includes(name),
    roleNames: () => roles,
    knownTools: knownToolNames,
  });
  return new Map(entries.map((entry) => [entry.name, entry.problems.map(formatWorkflowProblem)]));
}

describe('loop state: what a step may read', () => {
  it("accepts the evaluator-optimizer example, a key a later step of the loop writes, a parallel sibling's in a loop, and an enclosing loop's", async () => {
    const found = await problems({
      'evaluator-optimizer.yaml': evaluatorOptimizer,
      'later.yaml': `description: The fixer reads last round's review.
type: sequential
steps:
  - type: loop
    max_iterations: 2
    steps:
      - agent: refactorer
        prompt: "Fix {input}; last review: {review}"
      - agent: reviewer
        prompt: "Review the fix"
        output_key: review
  - agent: researcher
    prompt: "Report on {review}"
`,
      'siblings.yaml': `description: Parallel branches read each other's previous round.
type: loop
max_iterations: 2
steps:
  - type: parallel
    steps:
      - agent: researcher
        prompt: "Part one, after {two}"
        output_key: one
      - agent: researcher
        prompt: "Part two, after {one}"
        output_key: two
`,
      'nested.yaml': `description: An inner loop reads what the outer loop writes after it.
type: loop
max_iterations: 2
defaults:
  summary: "nothing yet"
steps:
  - type: loop
    max_iterations: 2
    steps:
      - agent: reviewer
        prompt: "Review, knowing {summary}"
        output_key: review
  - agent: researcher
    prompt: "Summarize {review}"
    output_key: summary
`,
    });
    expect(Object.fromEntries(found)).toEqual({ 'evaluator-optimizer': [], later: [], siblings: [], nested: [] });
  });

  it('refuses keys that can never have a value, naming file, line and field', async () => {
    const found = await problems({
      'nowhere.yaml':
        'description: Reads a key nobody writes.\ntype: loop\nmax_iterations: 2\nsteps:\n  - agent: reviewer\n    prompt: "Again, after {critique}"\n    output_key: review\n',
      'after.yaml': `description: Reads inside the loop a key written after it.
type: sequential
steps:
  - type: loop
    max_iterations: 2
    steps:
      - agent: reviewer
        prompt: "Review, knowing {verdict}"
  - agent: researcher
    prompt: "Decide"
    output_key: verdict
`,
      'outside.yaml':
        'description: Outside a loop nothing carries.\ntype: sequential\nsteps:\n  - agent: reviewer\n    prompt: "Review {verdict}"\n  - agent: researcher\n    prompt: Decide\n    output_key: verdict\n',
    });
    expect(found.get('nowhere')).toEqual(['.agent-team/workflows/nowhere.yaml:6: steps[0].prompt: {critique} is not produced by any step']);
    expect(found.get('after')).toEqual([
      ".agent-team/workflows/after.yaml:8: steps[0].steps[0].prompt: {verdict} is produced by steps[1], which this step cannot see: a step sees what earlier steps wrote and, inside a loop, what the loop's own steps wrote in the previous round",
    ]);
    expect(found.get('outside')).toEqual([
      '.agent-team/workflows/outside.yaml:5: steps[0].prompt: {verdict} is produced by steps[1], which this step cannot see (only earlier steps, and not parallel branches, are visible)',
    ]);
  });

  it('refuses defaults that could never be used: for a key the loop does not write, one set before it, one of an inner loop, on a group that is not a loop', async () => {
    const found = await problems({
      'unwritten.yaml':
        'description: A default for nothing.\ntype: loop\nmax_iterations: 2\ndefaults:\n  critique: none\nsteps:\n  - agent: reviewer\n    prompt: Again\n    output_key: review\n',
      'before.yaml': `description: A default hidden by an earlier step.
type: sequential
steps:
  - agent: researcher
    prompt: Start
    output_key: draft
  - type: loop
    max_iterations: 2
    defaults:
      draft: empty
    steps:
      - agent: refactorer
        prompt: "Improve {draft}"
        output_key: draft
`,
      'inner.yaml': `description: An inner loop's default is the outer loop's to give.
type: loop
max_iterations: 2
steps:
  - type: loop
    max_iterations: 2
    defaults:
      review: none
    steps:
      - agent: reviewer
        prompt: "Review again after {review}"
        output_key: review
`,
      'sequence.yaml':
        'description: Defaults on a sequence.\ntype: sequential\ndefaults:\n  review: none\nsteps:\n  - agent: reviewer\n    prompt: Once\n    output_key: review\n',
      'shape.yaml':
        'description: Bad defaults.\ntype: loop\nmax_iterations: 2\ndefaults:\n  review: 3\n  "not a key": x\nsteps:\n  - agent: reviewer\n    prompt: Once\n    output_key: review\n',
    });
    expect(found.get('unwritten')).toEqual([
      ".agent-team/workflows/unwritten.yaml:5: defaults.critique: no step of this loop writes {critique}: a default is the value of a key the loop's steps write, until the step that writes it first runs",
    ]);
    expect(found.get('before')).toEqual([
      '.agent-team/workflows/before.yaml:10: steps[1].defaults.draft: {draft} already has a value when this loop starts (written by steps[0]), so the default would never be used',
    ]);
    expect(found.get('inner')).toEqual([
      '.agent-team/workflows/inner.yaml:8: steps[0].defaults.review: {review} is written inside an enclosing loop too, which gives it its value before this loop starts; declare the default on the outermost loop',
    ]);
    expect(found.get('sequence')).toEqual([
      '.agent-team/workflows/sequence.yaml:4: defaults: only a loop has defaults (for keys its steps write, read in the round before); this group is sequential',
    ]);
    expect(found.get('shape')).toEqual([
      '.agent-team/workflows/shape.yaml:5: defaults.review: must be text (quote it)',
      '.agent-team/workflows/shape.yaml:6: defaults.not a key: has a key that must be a name of letters, digits, "_" or "-", starting with a letter or "_"',
    ]);
  });
});

describe('loop state: a run', () => {
  let harness: TeamHarness;
  afterEach(async () => {
    await harness.taskManager.close();
    harness.roles.dispose();
  });

  async function workflowsFrom(files: Record<string, string>): Promise<Map<string, WorkflowDefinition>> {
    for (const [name, content] of Object.entries(files)) harness.roleFiles.files.set(`.agent-team/workflows/${name}`, content);
    const entries = await loadWorkflows(harness.roleFiles, workflowRoles(harness.roles));
    for (const entry of entries) expect(entry.problems, entry.name).toEqual([]);
    return new Map(entries.map((entry) => [entry.name, entry.workflow as WorkflowDefinition]));
  }

  it("round 2 of the evaluator-optimizer gets round 1's draft and critique; round 1 gets the defaults", async () => {
    harness = await createTeamHarness();
    const workflows = await workflowsFrom({ 'evaluator-optimizer.yaml': evaluatorOptimizer });
    harness.model('writer').enqueue('Draft 1: roses are red.', 'Draft 2: roses are red, violets are blue.');
    harness
      .model('critic')
      .enqueue(
        'Too short: add a second line.',
        [toolCall('ExitLoop', { reason: 'the poem is complete' })],
        'Draft 2: roses are red, violets are blue.',
      );
    const { task } = await harness.team.runWorkflow({
      workflow: workflows.get('evaluator-optimizer') as WorkflowDefinition,
      input: 'a two-line poem',
      workflows,
    });
    expect(task).toMatchObject({ status: 'completed', output: 'Draft 2: roses are red, violets are blue.' });
    const writer = harness.model('writer').calls.map((call) => lastMessageText(call.request));
    expect(writer).toEqual([
      "Write a two-line poem.\nYour previous draft: none yet\nThe critic's notes on it: none yet: this is the first draft",
      "Write a two-line poem.\nYour previous draft: Draft 1: roses are red.\nThe critic's notes on it: Too short: add a second line.",
    ]);
    expect(lastMessageText(harness.model('critic').calls[1].request)).toBe(
      'Critique this draft of a two-line poem:\nDraft 2: roses are red, violets are blue.\nWhen it is good as it stands, call ExitLoop and answer with the draft unchanged.',
    );
    expect(harness.taskManager.transcript(task.id).map((entry) => (entry.type === 'notice' ? entry.text : entry.type))).toEqual([
      'Round 1 of at most 3.',
      'Round 2 of at most 3.',
      'The loop ended in round 2: the poem is complete',
    ]);
  });

  it('without a default, a key the loop writes later reads as empty text in round 1', async () => {
    harness = await createTeamHarness();
    const workflows = await workflowsFrom({
      'fix.yaml':
        'description: Fix until reviewed.\ntype: loop\nmax_iterations: 2\nsteps:\n  - agent: refactorer\n    prompt: "Fix {input}. Review so far: [{review}]"\n  - agent: reviewer\n    prompt: Review\n    output_key: review\n',
    });
    harness.model('refactorer').enqueue('Fixed.', 'Fixed again.');
    harness.model('reviewer').enqueue('Add a test.', 'Good.');
    const { task } = await harness.team.runWorkflow({
      workflow: workflows.get('fix') as WorkflowDefinition,
      input: 'the parser',
      workflows,
    });
    expect(task.status).toBe('completed');
    expect(harness.model('refactorer').calls.map((call) => lastMessageText(call.request))).toEqual([
      'Fix the parser. Review so far: []',
      'Fix the parser. Review so far: [Add a test.]',
    ]);
  });
});
