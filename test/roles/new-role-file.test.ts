import { describe, expect, it } from 'vitest';
import { newRoleFileText, roleDescriptionProblem, roleNameProblem } from '../../src/engine/roles/new-role-file.js';
import { parseRoleFile } from '../../src/engine/roles/parse-role-file.js';
import { roleFileLocations } from '../../src/engine/roles/role-file-locations.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

describe('a new role file', () => {
  it('parses back as the role the form described, whatever the description holds', async () => {
    const text = await newRoleFileText({
      name: 'api-reviewer',
      description: 'Reviews API changes: "breaking" ones first #1',
      tools: ['Read', 'Grep', 'WebFetch'],
      model: 'haiku',
    });
    const parsed = parseRoleFile({
      knownTools: knownToolNames,
      path: '.agent-team/agents/api-reviewer.md',
      fileName: 'api-reviewer.md',
      text,
      location: roleFileLocations[0]!,
    });
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.role).toMatchObject({
      name: 'api-reviewer',
      description: 'Reviews API changes: "breaking" ones first #1',
      tools: ['Read', 'Grep', 'WebFetch'],
      model: 'haiku',
    });
    expect(parsed.role?.instruction).toContain('You are the api-reviewer of a software team.');
  });

  it('leaves the model out when the form names none', async () => {
    expect(await newRoleFileText({ name: 'x', description: 'Does x.', tools: ['Read'] })).not.toContain('model:');
  });

  it('says what is wrong with a name or a description', () => {
    expect(roleNameProblem('')).toBe('A role needs a name.');
    expect(roleNameProblem('9lives')).toContain('starting with a letter');
    expect(roleNameProblem('../escape')).toContain('Letters, digits');
    expect(roleNameProblem('good_name-2')).toBeUndefined();
    expect(roleDescriptionProblem('  ')).toContain('coordinator chooses roles');
  });
});
