/**
 * The tools role files may name are the capabilities' declared tools: the union of every descriptor's
 * tools a role may list (the file tools among them), each with a one-line purpose, no name twice.
 */
import { describe, expect, it } from 'vitest';
import { fileToolsDescriptor } from '../../src/engine/capabilities/file-tools-descriptor.js';
import { readOnlyToolNames, editToolNames, toolNames } from '../../src/engine/roles/tool-names.js';
import { capabilityDescriptors, knownTools } from '../../src/engine/team/capabilities.js';

const declaredRoleTools = capabilityDescriptors.flatMap((descriptor) => descriptor.tools.filter((tool) => tool.listedInRoles !== false));

describe('the known tools', () => {
  it('are the union of the descriptors’ tools a role may list, the file tools included, in the list’s order', () => {
    expect(knownTools.map((tool) => tool.name)).toEqual(declaredRoleTools.map((tool) => tool.name));
    expect(knownTools.map((tool) => tool.name)).toEqual(expect.arrayContaining([...readOnlyToolNames, ...editToolNames]));
    expect(fileToolsDescriptor.tools.map((tool) => tool.name)).toEqual([...readOnlyToolNames, ...editToolNames]);
  });

  it('are exactly the names role files are checked against (roles/tool-names.ts)', () => {
    expect([...toolNames]).toEqual(knownTools.map((tool) => tool.name));
  });

  it('each have one name and a purpose of one line; a tool given by circumstance is declared but not listed', () => {
    const all = capabilityDescriptors.flatMap((descriptor) => descriptor.tools);
    expect(new Set(all.map((tool) => tool.name)).size).toBe(all.length);
    for (const tool of all) expect(tool.purpose, tool.name).toMatch(/^[^\n]{5,80}$/);
    expect(all.map((tool) => tool.name)).toEqual(expect.arrayContaining(['ExitLoop', 'Agent', 'TaskOutput', 'TaskStop', 'SendMessage']));
    expect(knownTools.map((tool) => tool.name)).not.toContain('ExitLoop');
  });
});
