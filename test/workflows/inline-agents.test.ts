/** Inline agents in workflow steps (kagent's name, systemMessage, model, tools): checked, then run. */
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import type { WorkflowDefinition } from '../../src/engine/workflows/workflow-definition.js';
import { loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { formatWorkflowProblem } from '../../src/engine/workflows/workflow-problem.js';
import { workflowRoles } from '../../src/engine/workflows/workflow-roles.js';
import { type TeamHarness, createTeamHarness, lastMessageText, toolNamesOf } from '../delegation/team-harness.js';

const { toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

async function entriesOf(files: Record<string, string>) {
  for (const [name, content] of Object.entries(files)) harness.roleFiles.files.set(name, content);
  await harness.roles.reload();
  const entries = await loadWorkflows(harness.roleFiles, workflowRoles(harness.roles));
  return new Map(entries.map((entry) => [entry.name, entry]));
}

function step(agent: string, extra = ''): string {
  return `description: One inline step.\ntype: sequential\nsteps:\n  - agent:\n${agent.replace(/^/gm, '      ')}\n    prompt: "Review {input}"\n${extra}`;
}

describe('inline agents: validation', () => {
  it('refuses an unknown tool, a tool restriction, a missing systemMessage or name, a bad name, a list of models, unknown fields, a workflow key in the system message, and an agent that is neither', async () => {
    harness = await createTeamHarness();
    const entries = await entriesOf({
      '.agent-team/workflows/tools.yaml': step('name: critic\nsystemMessage: You critique.\ntools: [Read, Teleport, "Bash(git:*)"]'),
      '.agent-team/workflows/no-system.yaml': step('name: critic\ntools: [Read]'),
      '.agent-team/workflows/no-name.yaml': step('systemMessage: You critique.'),
      '.agent-team/workflows/bad-name.yaml': step('name: "\\e[31mred critic"\nsystemMessage: You critique.'),
      '.agent-team/workflows/models.yaml': step('name: critic\nsystemMessage: You critique.\nmodel: [sonnet, haiku]'),
      '.agent-team/workflows/kagent.yaml': step(
        'name: critic\nsystemMessage: You critique.\nmodelConfig: default-model-config\ncolour: blue',
      ),
      '.agent-team/workflows/number.yaml': 'description: N.\ntype: sequential\nsteps:\n  - agent: 42\n    prompt: 7\n',
      '.agent-team/workflows/templated.yaml': step(
        'name: critic\nsystemMessage: "You critique {input}; {{braces}} and {unknown} stay as written."',
      ),
    });
    const problems = (name: string) => entries.get(name)?.problems.map(formatWorkflowProblem);
    expect(problems('tools')).toEqual([
      '.agent-team/workflows/tools.yaml:7: steps[0].agent.tools[1]: is not a tool of Agent Team (tools: Read, Glob, Grep, Edit, Write, Bash, WebFetch, Skill, Agent, TaskOutput, TaskStop, SendMessage); an inline agent names each tool exactly, without restrictions such as Bash(git:*)',
      '.agent-team/workflows/tools.yaml:7: steps[0].agent.tools[2]: is not a tool of Agent Team (tools: Read, Glob, Grep, Edit, Write, Bash, WebFetch, Skill, Agent, TaskOutput, TaskStop, SendMessage); an inline agent names each tool exactly, without restrictions such as Bash(git:*)',
    ]);
    expect(problems('no-system')).toEqual([
      '.agent-team/workflows/no-system.yaml:5: steps[0].agent.systemMessage: is missing: say who the agent is and how it works (its system prompt)',
    ]);
    expect(problems('no-name')).toEqual([
      '.agent-team/workflows/no-name.yaml:5: steps[0].agent.name: is missing: an inline agent needs a name, shown in the task tree',
    ]);
    // The name is not repeated: it may hold escape sequences.
    expect(problems('bad-name')).toEqual([
      '.agent-team/workflows/bad-name.yaml:5: steps[0].agent.name: is not a valid agent name: use letters, digits, "-" and "_", starting with a letter, at most 64 characters (e.g. critic)',
    ]);
    expect(problems('models')).toEqual([
      '.agent-team/workflows/models.yaml:7: steps[0].agent.model: names one model here, e.g. model: sonnet',
    ]);
    expect(problems('kagent')).toEqual([
      ".agent-team/workflows/kagent.yaml:7: steps[0].agent.modelConfig: kagent's modelConfig names a cluster resource; write model: <model id> (default: the run's model)",
      '.agent-team/workflows/kagent.yaml:8: steps[0].agent.colour: unknown field "colour" of an inline agent (fields: name, systemMessage, description, model, tools)',
    ]);
    expect(problems('templated')).toEqual([
      ".agent-team/workflows/templated.yaml:6: steps[0].agent.systemMessage: {input} is not filled in a system message, which is sent as written; put it in the step's prompt",
    ]);
    expect(problems('number')).toEqual([
      '.agent-team/workflows/number.yaml:4: steps[0].agent: must be a role name, or an agent defined inline (name, systemMessage, model, tools)',
      '.agent-team/workflows/number.yaml:5: steps[0].prompt: must be a string',
    ]);
  });

  it("refuses a name that is a role's (built in or from a role file), one the tree gives other tasks, and one name defined two ways", async () => {
    harness = await createTeamHarness();
    const entries = await entriesOf({
      '.agent-team/agents/tidy.md': '---\nname: tidy\ndescription: Tidies.\n---\nYou tidy.',
      '.agent-team/workflows/built-in.yaml': step('name: reviewer\nsystemMessage: You are not the reviewer.'),
      '.agent-team/workflows/role-file.yaml': step('name: tidy\nsystemMessage: You are not tidy.'),
      '.agent-team/workflows/reserved.yaml': step('name: loop\nsystemMessage: You are no loop.'),
      '.agent-team/workflows/coordinator.yaml': step('name: coordinator\nsystemMessage: You are no coordinator.'),
      '.agent-team/workflows/twice.yaml': `${step('name: critic\nsystemMessage: You critique.')}  - agent: {name: critic, systemMessage: You praise.}\n    prompt: Praise\n  - agent: {name: critic, systemMessage: You critique.}\n    prompt: Again\n`,
    });
    const problems = (name: string) => entries.get(name)?.problems.map(formatWorkflowProblem);
    expect(problems('built-in')).toEqual([
      '.agent-team/workflows/built-in.yaml:5: steps[0].agent.name: "reviewer" is the name of a role; give the inline agent a name of its own (or write agent: reviewer to run that role)',
    ]);
    expect(problems('role-file')).toEqual([
      '.agent-team/workflows/role-file.yaml:5: steps[0].agent.name: "tidy" is the name of a role; give the inline agent a name of its own (or write agent: tidy to run that role)',
    ]);
    expect(problems('reserved')).toEqual([
      '.agent-team/workflows/reserved.yaml:5: steps[0].agent.name: "loop" is a name the task tree gives to tasks that are not agents; give the inline agent a name of its own',
    ]);
    expect(problems('coordinator')).toEqual([
      '.agent-team/workflows/coordinator.yaml:5: steps[0].agent.name: "coordinator" is a name the task tree gives to the coordinator; give the inline agent a name of its own',
    ]);
    expect(problems('twice')).toEqual([
      '.agent-team/workflows/twice.yaml:8: steps[1].agent.name: an inline agent named "critic" is defined differently at steps[0].agent; give this one another name, or define it the same way',
    ]);
  });
});

describe('inline agents: a run', () => {
  it('runs the step as a task of the inline name, with its system message as the system prompt', async () => {
    harness = await createTeamHarness();
    const entries = await entriesOf({
      '.agent-team/workflows/review.yaml': `description: Critique in a loop, then summarize.
type: sequential
steps:
  - type: loop
    max_iterations: 2
    steps:
      - agent:
          name: critic
          systemMessage: You are a writing critic. Review and improve the content.
          tools: []
        prompt: "Critique {input}"
        output_key: critique
        description: Critique
  - agent: reviewer
    prompt: "Summarize {critique}"
    description: Summarize
`,
    });
    const workflow = entries.get('review')?.workflow as WorkflowDefinition;
    expect(entries.get('review')?.problems).toEqual([]);
    harness.model('critic').enqueue([toolCall('ExitLoop', { reason: 'nothing to improve' })], 'It reads well.');
    harness.model('reviewer').enqueue('Summary: it reads well.');
    const { task } = await harness.team.runWorkflow({ workflow, input: 'the README', workflows: new Map([['review', workflow]]) });
    expect(task).toMatchObject({ status: 'completed', output: 'Summary: it reads well.' });
    const tree = harness.taskManager.list().map((entry) => `${entry.role}: ${entry.description} (${entry.status})`);
    expect(tree).toEqual([
      'workflow: review (completed)',
      'loop: loop of 1 step (completed)',
      'critic: Critique (completed)',
      'reviewer: Summarize (completed)',
    ]);
    const request = harness.model('critic').calls[0].request;
    expect(request.system).toMatch(/^You are a writing critic\. Review and improve the content\./);
    expect(lastMessageText(request)).toBe('Critique the README');
    // `tools: []`: nothing but the loop's own ExitLoop, and no delegation.
    expect(toolNamesOf(request)).toEqual(['ExitLoop']);
    expect(lastMessageText(harness.model('reviewer').calls[0].request)).toBe('Summarize It reads well.');
  });
});
