/**
 * The tools role files may name are the capabilities' declared tools: the union of every descriptor's
 * tools a role may list (the file tools among them), each with a one-line purpose, no name twice. roles/
 * keeps no list of its own: the composition root hands the descriptors' names down, so a capability that
 * declares a new tool is accepted in role files, inline agents and prompt files with nothing else to edit.
 */
import { describe, expect, it } from 'vitest';
import { defineCapability } from '../../src/engine/capabilities/capability-descriptor.js';
import { roleTools } from '../../src/engine/capabilities/descriptor-list.js';
import { fileToolsDescriptor } from '../../src/engine/capabilities/file-tools-descriptor.js';
import { promptFileTools } from '../../src/engine/prompt-files/prompt-file-tools.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { editToolNames, readOnlyToolNames } from '../../src/engine/roles/tool-names.js';
import { capabilityDescriptors, knownToolNames, knownTools } from '../../src/engine/team/capabilities.js';
import { createTeamRoles } from '../../src/engine/team/engine-roles.js';
import { formatWorkflowProblem } from '../../src/engine/workflows/workflow-problem.js';
import { loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { workflowRoles } from '../../src/engine/workflows/workflow-roles.js';
import { MemoryRoleFiles } from '../delegation/team-harness.js';

const declaredRoleTools = capabilityDescriptors.flatMap((descriptor) => descriptor.tools.filter((tool) => tool.listedInRoles !== false));

/** A capability no descriptor of the engine declares: what a maintainer adds as a folder and one line. */
const sundialDescriptor = defineCapability({
  name: 'sundial',
  tools: [{ name: 'Sundial', purpose: 'tell the time by the sun' }],
  settings: {},
});

const roleFile = '---\ndescription: Keeps the time for the team.\ntools: [Read, sundial]\n---\nYou keep the time.\n';
const workflowFile =
  'description: One step.\ntype: sequential\nsteps:\n  - agent:\n      name: clock\n      systemMessage: You tell the time.\n      tools: [Sundial]\n    prompt: "When is {input}?"\n';

/** The role file, an inline agent and a prompt file naming Sundial, read with the known tools of `descriptors`. */
async function readWith(descriptors: typeof capabilityDescriptors | readonly unknown[]) {
  const known = roleTools(descriptors as typeof capabilityDescriptors).map((tool) => tool.name);
  const source = new MemoryRoleFiles();
  source.files.set('.agent-team/agents/timekeeper.md', roleFile);
  source.files.set('.agent-team/workflows/clock.yaml', workflowFile);
  const roles = new RoleRegistry({ source, knownTools: known });
  try {
    const { diagnostics } = await roles.load();
    const [workflow] = await loadWorkflows(source, workflowRoles(roles));
    const prompt = promptFileTools({ name: 'when', label: '.claude/commands/when.md', tools: ['Sundial'] }, roles.knownTools);
    return {
      tools: roles.get('timekeeper')?.tools,
      diagnostics: diagnostics.map((diagnostic) => diagnostic.message),
      workflowProblems: workflow!.problems.map(formatWorkflowProblem),
      prompt,
    };
  } finally {
    roles.dispose();
  }
}

describe('the known tools', () => {
  it('are the union of the descriptors’ tools a role may list, the file tools included, in the list’s order', () => {
    expect(knownTools.map((tool) => tool.name)).toEqual(declaredRoleTools.map((tool) => tool.name));
    expect(knownToolNames).toEqual(knownTools.map((tool) => tool.name));
    expect(knownTools.map((tool) => tool.name)).toEqual(expect.arrayContaining([...readOnlyToolNames, ...editToolNames]));
    expect(fileToolsDescriptor.tools.map((tool) => tool.name)).toEqual([...readOnlyToolNames, ...editToolNames]);
  });

  it('each have one name across all descriptors and a purpose of one line; a tool given by circumstance is declared but not listed', () => {
    const all = capabilityDescriptors.flatMap((descriptor) => descriptor.tools);
    const names = all.map((tool) => tool.name.toLowerCase());
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    for (const tool of all) expect(tool.purpose, tool.name).toMatch(/^[^\n]{5,80}$/);
    expect(all.map((tool) => tool.name)).toEqual(expect.arrayContaining(['ExitLoop', 'Agent', 'TaskOutput', 'TaskStop', 'SendMessage']));
    expect(knownTools.map((tool) => tool.name)).not.toContain('ExitLoop');
  });

  it('are what the composition root gives the role registry every host uses', () => {
    const roles = createTeamRoles({ root: '/nonexistent-workspace', home: '/nonexistent-home' });
    expect(roles.knownTools).toEqual(knownToolNames);
    roles.dispose();
  });

  it('refuse a tool no descriptor declares, in a role file, an inline agent and a prompt file', async () => {
    const read = await readWith(capabilityDescriptors);
    expect(read.tools).toEqual(['Read']);
    expect(read.diagnostics).toEqual([`unknown tool 'sundial'; the role loads without it (known tools: ${knownToolNames.join(', ')})`]);
    expect(read.workflowProblems).toEqual([expect.stringContaining('steps[0].agent.tools[0]: is not a tool of Agent Team')]);
    expect(read.prompt.warnings).toEqual([expect.stringContaining("'Sundial' is no tool of Agent Team")]);
  });

  it('accept a tool a new descriptor declares, in its own spelling, with nothing in roles/, workflows/ or prompt-files/ to edit', async () => {
    const read = await readWith([...capabilityDescriptors, sundialDescriptor]);
    expect(read.tools).toEqual(['Read', 'Sundial']);
    expect(read.diagnostics).toEqual([]);
    expect(read.workflowProblems).toEqual([]);
    expect(read.prompt).toEqual({ allowedTools: ['Sundial'], warnings: [] });
  });
});
