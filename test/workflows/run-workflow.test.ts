import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import type { WorkflowDefinition } from '../../src/engine/workflows/workflow-definition.js';
import { loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { workflowRoles } from '../../src/engine/workflows/workflow-roles.js';
import { type TeamHarness, createTeamHarness, lastMessageText, toolNamesOf } from '../delegation/team-harness.js';

const { text, toolCall } = ScriptedModel;
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

function tree(): string[] {
  const tasks = harness.taskManager.list();
  const depthOf = (id: string | null): number => (id === null ? 0 : 1 + depthOf(tasks.find((task) => task.id === id)?.parentId ?? null));
  return tasks.map((task) => `${'  '.repeat(depthOf(task.parentId))}${task.role}: ${task.description} (${task.status})`);
}

const fix = `description: Find the bug, fix it, review the fix.
type: sequential
steps:
  - agent: researcher
    prompt: "Find where {input} is handled."
    output_key: findings
    description: Find the handler
  - agent: refactorer
    prompt: "Fix it. Findings: {findings}"
    description: Fix it
  - type: loop
    max_iterations: 3
    steps:
      - agent: reviewer
        prompt: "Review the fix of {input}; call ExitLoop when it is sound."
        description: Review the fix
  - workflow: lint-pass
`;
const lintPass =
  'description: Lint the change.\ntype: sequential\nsteps:\n  - agent: reviewer\n    prompt: "Lint {input}"\n    description: Lint\n';

describe('running a workflow', () => {
  it('passes state by output_key, nests inline and by name, and ends a loop by ExitLoop', async () => {
    harness = await createTeamHarness();
    const workflows = await workflowsFrom({ 'fix.yaml': fix, 'lint-pass.yaml': lintPass });
    harness.model('researcher').enqueue('Dates are parsed in parser.ts:7.');
    harness.model('refactorer').enqueue('Proposed a fix to parser.ts.');
    harness
      .model('reviewer')
      .enqueue(
        'Round one: not yet sound.',
        [toolCall('ExitLoop', { reason: 'the fix handles invalid input' })],
        'Round two: sound.',
        'Lint: clean.',
      );
    const { task } = await harness.team.runWorkflow({
      workflow: workflows.get('fix') as WorkflowDefinition,
      input: 'date parsing',
      workflows,
    });
    expect(task).toMatchObject({ role: 'workflow', description: 'fix', status: 'completed', output: 'Lint: clean.' });
    expect(tree()).toEqual([
      'workflow: fix (completed)',
      '  researcher: Find the handler (completed)',
      '  refactorer: Fix it (completed)',
      '  loop: loop of 1 step (completed)',
      '    reviewer: Review the fix (completed)',
      '    reviewer: Review the fix (completed)',
      '  workflow: lint-pass (completed)',
      '    reviewer: Lint (completed)',
    ]);
    expect(lastMessageText(harness.model('researcher').calls[0].request)).toBe('Find where date parsing is handled.');
    expect(lastMessageText(harness.model('refactorer').calls[0].request)).toBe('Fix it. Findings: Dates are parsed in parser.ts:7.');
    expect(lastMessageText(harness.model('reviewer').calls[3].request)).toBe('Lint date parsing');
    // Only the loop's members are offered ExitLoop.
    expect(toolNamesOf(harness.model('reviewer').calls[0].request)).toContain('ExitLoop');
    expect(toolNamesOf(harness.model('reviewer').calls[3].request)).not.toContain('ExitLoop');
    expect(toolNamesOf(harness.model('researcher').calls[0].request)).not.toContain('ExitLoop');
    const loopId = harness.taskManager.list().find((entry) => entry.role === 'loop')?.id as string;
    expect(harness.taskManager.transcript(loopId).map((entry) => (entry.type === 'notice' ? entry.text : entry.type))).toEqual([
      'Round 1 of at most 3.',
      'Round 2 of at most 3.',
      'The loop ended in round 2: the fix handles invalid input',
    ]);
  });

  it('a loop nobody exits ends at max_iterations', async () => {
    harness = await createTeamHarness();
    const workflows = await workflowsFrom({
      'polish.yaml': 'description: Polish.\ntype: loop\nmax_iterations: 3\nsteps:\n  - agent: reviewer\n    prompt: Polish {input}\n',
    });
    harness.model('reviewer').enqueue('one', 'two', 'three');
    const { task } = await harness.team.runWorkflow({
      workflow: workflows.get('polish') as WorkflowDefinition,
      input: 'the README',
      workflows,
    });
    expect(task).toMatchObject({ status: 'completed', output: 'three' });
    expect(harness.model('reviewer').calls).toHaveLength(3);
    expect(harness.taskManager.transcript(task.id).at(-1)).toEqual({ type: 'notice', text: 'The loop ended after 3 rounds, its limit.' });
  });

  it('runs parallel branches side by side with isolated state; their keys and outputs come after, in order', async () => {
    harness = await createTeamHarness({ maxConcurrent: 2 });
    const workflows = await workflowsFrom({
      'survey.yaml': `description: Survey two areas, then summarize.
type: sequential
steps:
  - type: parallel
    steps:
      - agent: researcher
        prompt: "Survey the parser for {input}"
        output_key: parser
      - agent: reviewer
        prompt: "Survey the printer for {input}"
        output_key: printer
  - agent: reviewer
    prompt: "Summarize. Parser: {parser}. Printer: {printer}."
`,
    });
    const researcherHold = ScriptedModel.held([text('Parser: ')], [text('uses JSON.parse.')]);
    const reviewerHold = ScriptedModel.held([text('Printer: ')], [text('uses String().')]);
    harness.model('researcher').enqueue(researcherHold);
    harness.model('reviewer').enqueue(reviewerHold, 'Summary done.');
    const run = harness.team.runWorkflow({ workflow: workflows.get('survey') as WorkflowDefinition, input: 'dates', workflows });
    // Both branches are in their model calls at once (the parallel group waits, holding no slot).
    await Promise.all([researcherHold.reached, reviewerHold.reached]);
    reviewerHold.release();
    researcherHold.release();
    const { task } = await run;
    expect(task.status).toBe('completed');
    expect(lastMessageText(harness.model('reviewer').calls[1].request)).toBe(
      'Summarize. Parser: Parser: uses JSON.parse.. Printer: Printer: uses String()..',
    );
    const parallel = harness.taskManager.list().find((entry) => entry.role === 'parallel');
    expect(parallel?.output).toBe(
      '## researcher: Survey the parser for dates (completed)\nParser: uses JSON.parse.\n\n## reviewer: Survey the printer for dates (completed)\nPrinter: uses String().',
    );
  });

  it('a step may be the coordinator, which plans and delegates its part on its own', async () => {
    harness = await createTeamHarness();
    const workflows = await workflowsFrom({
      'triage.yaml':
        'description: Triage, then report.\ntype: sequential\nsteps:\n  - agent: coordinator\n    prompt: "Triage {input}"\n    output_key: triage\n  - agent: reviewer\n    prompt: "Report on {triage}"\n',
    });
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Look', prompt: 'Look at the bug' })],
        'Triaged: a parser bug.',
      );
    harness.model('researcher').enqueue('It is in the parser.');
    harness.model('reviewer').enqueue('Report: a parser bug.');
    const { task } = await harness.team.runWorkflow({
      workflow: workflows.get('triage') as WorkflowDefinition,
      input: 'issue 7',
      workflows,
    });
    expect(task.output).toBe('Report: a parser bug.');
    expect(tree()).toEqual([
      'workflow: triage (completed)',
      '  coordinator: Triage issue 7 (completed)',
      '    researcher: Look (completed)',
      '  reviewer: Report on Triaged: a parser bug. (completed)',
    ]);
  });

  it('a stopped step fails the sequence, naming it; stopping the workflow stops every step', async () => {
    harness = await createTeamHarness();
    const workflows = await workflowsFrom({ 'fix.yaml': fix, 'lint-pass.yaml': lintPass });
    const hold = ScriptedModel.held([text('Looking')]);
    harness.model('researcher').enqueue(hold);
    const run = harness.team.runWorkflow({ workflow: workflows.get('fix') as WorkflowDefinition, input: 'dates', workflows });
    await hold.reached;
    const researcher = harness.taskManager.list().find((entry) => entry.role === 'researcher')?.id as string;
    await harness.taskManager.stop(researcher);
    const { task } = await run;
    expect(task.status).toBe('failed');
    expect(task.error).toBe(`step ${researcher} (researcher: "Find the handler") stopped: stopped by the user`);
    expect(harness.model('refactorer').calls).toHaveLength(0);

    const second = ScriptedModel.held([text('Looking again')]);
    harness.model('researcher').enqueue(second);
    const again = harness.team.runWorkflow({ workflow: workflows.get('fix') as WorkflowDefinition, input: 'dates', workflows });
    await second.reached;
    const root = harness.taskManager
      .list()
      .filter((entry) => entry.role === 'workflow')
      .at(-1)?.id as string;
    await harness.taskManager.stop(root);
    expect((await again).task.status).toBe('stopped');
    expect(harness.taskManager.children(root).map((entry) => entry.status)).toEqual(['stopped']);
  });
});
