import { describe, expect, it } from 'vitest';
import { builtInRoles, refactorerRole, researcherRole, reviewerRole } from '../../src/engine/roles/built-in/index.js';
import { coordinatorInstruction, coordinatorTools } from '../../src/engine/roles/coordinator.js';
import { canProposeEdits, isReadOnlyRole, resolveRoleTools } from '../../src/engine/roles/role-tools.js';
import { describeRoster } from '../../src/engine/roles/roster.js';
import { readOnlyToolNames } from '../../src/engine/roles/tool-names.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

describe('built-in roles', () => {
  it('are researcher, reviewer and refactorer, each a valid built-in definition', () => {
    expect(builtInRoles.map((role) => role.name)).toEqual(['researcher', 'reviewer', 'refactorer']);
    for (const role of builtInRoles) {
      expect(role.source).toEqual({ kind: 'built-in' });
      expect(role.description.length).toBeGreaterThan(40);
      expect(role.instruction.length).toBeGreaterThan(500);
      // roles/ names the built-ins' tools by hand: each must be one a capability declares.
      expect(role.tools?.every((tool) => knownToolNames.includes(tool))).toBe(true);
    }
  });

  it('keeps the researcher read-only (it may read web pages); the reviewer proposes nothing but may run commands that check', () => {
    expect(resolveRoleTools(researcherRole)).toEqual(['Read', 'Glob', 'Grep', 'Skill', 'WebFetch']);
    expect(isReadOnlyRole(researcherRole)).toBe(true);
    expect(resolveRoleTools(reviewerRole)).toEqual(['Read', 'Glob', 'Grep', 'Skill', 'Bash', 'WebFetch']);
    expect(canProposeEdits(reviewerRole)).toBe(false);
  });

  it('lets the refactorer propose edits with Edit and Write, on top of the read tools, and check them with Bash', () => {
    // WebFetch too: the refactorer reaches the researcher, so it has every tool the researcher has.
    expect(resolveRoleTools(refactorerRole)).toEqual([...readOnlyToolNames, 'Skill', 'Edit', 'Write', 'Bash', 'WebFetch']);
    expect(canProposeEdits(refactorerRole)).toBe(true);
    expect(isReadOnlyRole(refactorerRole)).toBe(false);
  });

  it('gives no built-in a delegation tool (depth decides that elsewhere)', () => {
    for (const role of builtInRoles) {
      expect(resolveRoleTools(role)).not.toContain('Agent');
      expect(resolveRoleTools(role)).not.toContain('TaskOutput');
      expect(resolveRoleTools(role)).not.toContain('TaskStop');
    }
  });

  it('ask for the answer shapes the coordinator relies on', () => {
    expect(researcherRole.instruction).toContain('file:line');
    for (const severity of ['critical', 'high', 'medium', 'low', 'nit']) expect(reviewerRole.instruction).toContain(`${severity}:`);
    expect(reviewerRole.instruction).toContain('Verdict:');
    expect(refactorerRole.instruction).toMatch(/proposals/);
    expect(refactorerRole.instruction).toMatch(/File by file/);
  });
});

describe('coordinator instruction', () => {
  it('teaches the delegation tools and the briefing, and is not a roster role', () => {
    for (const term of ['Agent', 'TaskOutput', 'TaskStop', 'run_in_background', 'subagent_type', 'file paths']) {
      expect(coordinatorInstruction).toContain(term);
    }
    expect(coordinatorInstruction).toMatch(/has not seen this conversation/);
    expect(coordinatorInstruction).toMatch(/awaiting their review/);
    expect(builtInRoles.some((role) => role.name === 'coordinator')).toBe(false);
    expect(coordinatorTools).toEqual(['Agent', 'TaskOutput', 'TaskStop', 'SendMessage', 'Read', 'Glob', 'Grep', 'Skill']);
  });
});

describe('describeRoster', () => {
  it("lists each role's name, description, capability and tools, one per entry", () => {
    const roster = describeRoster(builtInRoles);
    const lines = roster.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`- researcher: ${researcherRole.description} (read-only; tools: Read, Glob, Grep, Skill, WebFetch)`);
    expect(lines[1]).toBe(
      `- reviewer: ${reviewerRole.description} (no file edits; runs commands in a scratch copy; tools: Read, Glob, Grep, Skill, Bash, WebFetch)`,
    );
    expect(lines[2]).toBe(
      `- refactorer: ${refactorerRole.description} (proposes edits for review; runs commands in a scratch copy; tools: Read, Glob, Grep, Skill, Edit, Write, Bash, WebFetch)`,
    );
  });

  it('keeps a multi-line description inside its entry and says when there are no roles', () => {
    const roster = describeRoster([{ ...researcherRole, name: 'custom', description: 'First line.\nSecond line.', tools: [] }]);
    expect(roster).toBe('- custom: First line.\n  Second line. (read-only; tools: none)');
    expect(describeRoster([])).toBe('No subagent types are available.');
  });
});
