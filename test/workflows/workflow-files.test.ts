import { describe, expect, it } from 'vitest';
import { fillTemplate, placeholdersOf } from '../../src/engine/workflows/prompt-template.js';
import { type WorkflowEntry, loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { formatWorkflowProblem } from '../../src/engine/workflows/workflow-problem.js';
import { MemoryRoleFiles } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const roles = ['researcher', 'reviewer', 'refactorer'];
const context = { hasRole: (name: string) => roles.includes(name), roleNames: () => roles, knownTools: knownToolNames };

async function load(files: Record<string, string>): Promise<Map<string, WorkflowEntry>> {
  const source = new MemoryRoleFiles();
  for (const [name, text] of Object.entries(files)) source.files.set(`.agent-team/workflows/${name}`, text);
  const entries = await loadWorkflows(source, context);
  return new Map(entries.map((entry) => [entry.name, entry]));
}

function problemsOf(entries: Map<string, WorkflowEntry>, name: string): string[] {
  return (entries.get(name)?.problems ?? []).map(formatWorkflowProblem);
}

const fixWorkflow = `description: Find the bug, fix it, review the fix.
type: sequential
steps:
  - agent: researcher
    prompt: "Find where {input} is handled."
    output_key: findings
  - agent: refactorer
    prompt: "Fix it. Findings: {findings}"
  - type: loop
    max_iterations: 3
    steps:
      - agent: reviewer
        prompt: "Review the fix; call ExitLoop when it is sound."
  - workflow: lint-pass
`;
const lintPass = `description: Lint the change.
type: sequential
steps:
  - agent: reviewer
    prompt: "Lint {input}"
`;

describe('workflow files', () => {
  it('loads the documented example, nested inline and by name', async () => {
    const entries = await load({ 'fix.yaml': fixWorkflow, 'lint-pass.yml': lintPass });
    expect([...entries.keys()]).toEqual(['fix', 'lint-pass']);
    expect(entries.get('fix')?.problems).toEqual([]);
    const fix = entries.get('fix')?.workflow;
    expect(fix).toMatchObject({
      name: 'fix',
      path: '.agent-team/workflows/fix.yaml',
      type: 'sequential',
      description: 'Find the bug, fix it, review the fix.',
    });
    expect(fix?.steps).toHaveLength(4);
    expect(fix?.lines.get('steps[2].steps[0].prompt')).toBe(13);
  });

  it('names the file, the line and the field of a placeholder no earlier step produces', async () => {
    const entries = await load({
      'fix.yaml': fixWorkflow.replace('Review the fix; call ExitLoop when it is sound.', 'Review {review}'),
      'lint-pass.yaml': lintPass,
    });
    expect(problemsOf(entries, 'fix')).toEqual([
      '.agent-team/workflows/fix.yaml:13: steps[2].steps[0].prompt: {review} is not produced by any step',
    ]);
    expect(entries.get('fix')?.workflow).toBeUndefined();
    expect(entries.get('lint-pass')?.workflow).toBeDefined();
  });

  it('a key produced later, or by a parallel sibling, is not visible; after the parallel group it is', async () => {
    const entries = await load({
      'later.yaml': `description: Uses a later key.
type: sequential
steps:
  - agent: researcher
    prompt: "Start from {plan}"
  - agent: researcher
    prompt: "Plan {input}"
    output_key: plan
`,
      'branches.yaml': `description: Parallel branches are isolated.
type: sequential
steps:
  - type: parallel
    steps:
      - agent: researcher
        prompt: "Part one of {input}"
        output_key: one
      - agent: researcher
        prompt: "Part two, knowing {one}"
        output_key: two
  - agent: reviewer
    prompt: "Review {one} and {two}"
`,
    });
    expect(problemsOf(entries, 'later')).toEqual([
      '.agent-team/workflows/later.yaml:5: steps[0].prompt: {plan} is produced by steps[1], which this step cannot see (only earlier steps, and not parallel branches, are visible)',
    ]);
    expect(problemsOf(entries, 'branches')).toEqual([
      '.agent-team/workflows/branches.yaml:10: steps[0].steps[1].prompt: {one} is produced by steps[0].steps[0], which this step cannot see (only earlier steps, and not parallel branches, are visible)',
    ]);
  });

  it('a loop needs max_iterations, and only a loop has one', async () => {
    const entries = await load({
      'no-cap.yaml': 'description: Loops forever.\ntype: loop\nsteps:\n  - agent: reviewer\n    prompt: Again\n',
      'cap-on-sequence.yaml':
        'description: Odd.\ntype: sequential\nsteps:\n  - type: sequential\n    max_iterations: 2\n    steps:\n      - agent: reviewer\n        prompt: Once\n',
      'zero.yaml': 'description: Zero rounds.\ntype: loop\nmax_iterations: 0\nsteps:\n  - agent: reviewer\n    prompt: Never\n',
    });
    expect(problemsOf(entries, 'no-cap')).toEqual([
      '.agent-team/workflows/no-cap.yaml:2: type: a loop needs max_iterations (how many rounds at most), e.g. max_iterations: 3',
    ]);
    expect(problemsOf(entries, 'cap-on-sequence')).toEqual([
      '.agent-team/workflows/cap-on-sequence.yaml:5: steps[0].max_iterations: only a loop has max_iterations; this group is sequential',
    ]);
    expect(problemsOf(entries, 'zero')).toEqual(['.agent-team/workflows/zero.yaml:3: max_iterations: must be at least 1']);
  });

  it('reports unknown roles and workflows, and running a broken workflow by name', async () => {
    const entries = await load({
      'a.yaml':
        'description: A.\ntype: sequential\nsteps:\n  - agent: astronaut\n    prompt: Fly\n  - workflow: nowhere\n  - workflow: broken\n',
      'broken.yaml': 'description: Broken.\ntype: sequential\nsteps: []\n',
    });
    expect(problemsOf(entries, 'a')).toEqual([
      '.agent-team/workflows/a.yaml:4: steps[0].agent: unknown role "astronaut"; known roles: researcher, reviewer, refactorer',
      '.agent-team/workflows/a.yaml:6: steps[1].workflow: there is no workflow "nowhere"; known workflows: broken',
      '.agent-team/workflows/a.yaml:7: steps[2].workflow: the workflow "broken" has problems of its own; fix its file first',
    ]);
    expect(problemsOf(entries, 'broken')).toEqual([
      '.agent-team/workflows/broken.yaml:3: steps: is empty: a workflow needs at least one step',
    ]);
  });

  it('a workflow that includes itself, directly or not, is invalid', async () => {
    const entries = await load({
      'self.yaml': 'description: Self.\ntype: sequential\nsteps:\n  - workflow: self\n',
      'ping.yaml': 'description: Ping.\ntype: sequential\nsteps:\n  - workflow: pong\n',
      'pong.yaml': 'description: Pong.\ntype: sequential\nsteps:\n  - agent: reviewer\n    prompt: Hi\n  - workflow: ping\n',
    });
    expect(problemsOf(entries, 'self')).toEqual(['.agent-team/workflows/self.yaml:1: includes itself: self → self']);
    expect(problemsOf(entries, 'ping')).toEqual(['.agent-team/workflows/ping.yaml:1: includes itself: ping → pong → ping']);
    expect(problemsOf(entries, 'pong')).toEqual(['.agent-team/workflows/pong.yaml:1: includes itself: pong → ping → pong']);
  });

  it('nesting deeper than 10 levels is invalid', async () => {
    let group = '- agent: reviewer\n  prompt: Deep\n';
    for (let level = 0; level < 10; level++) group = `- type: sequential\n  steps:\n${group.replace(/^/gm, '    ')}`;
    const entries = await load({ 'deep.yaml': `description: Deep.\ntype: sequential\nsteps:\n${group.replace(/^/gm, '  ')}` });
    expect(problemsOf(entries, 'deep')).toEqual([
      '.agent-team/workflows/deep.yaml:1: nests 11 levels deep (groups and workflows by name); at most 10 are allowed',
    ]);
  });

  it('reports YAML and shape errors with their lines, and a broken file never breaks the others', async () => {
    const entries = await load({
      'syntax.yaml': 'description: Bad\ntype: sequential\nsteps:\n  - agent: reviewer\n    prompt: "unclosed\n',
      'duplicate.yaml': 'description: Dup\ndescription: Dup again\ntype: sequential\nsteps:\n  - agent: reviewer\n    prompt: x\n',
      'shape.yaml':
        'description: Shape\ntype: circular\nsteps:\n  - agent: reviewer\n  - agent: reviewer\n    prompt: ok\n    colour: blue\n  - 42\n  - agent: reviewer\n    prompt: x\n    output_key: input\n',
      'list.yaml': '- just\n- a list\n',
      'good.yaml': lintPass,
    });
    expect(problemsOf(entries, 'syntax')[0]).toMatch(/^\.agent-team\/workflows\/syntax\.yaml:6: is not valid YAML: Missing closing/);
    expect(problemsOf(entries, 'duplicate')[0]).toMatch(
      /^\.agent-team\/workflows\/duplicate\.yaml:2: is not valid YAML: Map keys must be unique/,
    );
    expect(problemsOf(entries, 'shape')).toEqual(['.agent-team/workflows/shape.yaml:2: type: must be one of sequential, parallel, loop']);
    expect(problemsOf(entries, 'list')).toEqual([
      '.agent-team/workflows/list.yaml:1: must be YAML fields (description, type, steps), not a list or a single value',
    ]);
    expect(entries.get('good')?.workflow).toBeDefined();

    const steps = await load({
      'steps.yaml':
        'description: Steps\ntype: sequential\nsteps:\n  - agent: reviewer\n  - agent: reviewer\n    prompt: ok\n    colour: blue\n  - 42\n  - agent: reviewer\n    prompt: x\n    output_key: input\n',
    });
    expect(problemsOf(steps, 'steps')).toEqual([
      '.agent-team/workflows/steps.yaml:4: steps[0].prompt: is missing',
      '.agent-team/workflows/steps.yaml:5: steps[1]: unknown field "colour"',
      '.agent-team/workflows/steps.yaml:8: steps[2]: must be an agent step (agent, prompt), a group (type, steps) or a workflow by name (workflow)',
      '.agent-team/workflows/steps.yaml:11: steps[3].output_key: "input" is the workflow\'s input and cannot be written by a step',
    ]);
  });
});

describe('prompt templates', () => {
  it('fills {key} placeholders and keeps {{ }} as literal braces', () => {
    const template = 'Fix {findings} in {input}; code: function f() {{ return 1; }} and { x }';
    expect(placeholdersOf(template)).toEqual(['findings', 'input']);
    expect(
      fillTemplate(
        template,
        new Map([
          ['findings', 'the bug'],
          ['input', 'parser.ts'],
        ]),
      ),
    ).toBe('Fix the bug in parser.ts; code: function f() { return 1; } and { x }');
  });
});
