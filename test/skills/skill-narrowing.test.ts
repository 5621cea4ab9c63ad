/** `allowed-tools` as a narrowing: from the Skill call on (in its own turn too), only the listed tools; two skills narrow to what both allow. */
import { describe, expect, it } from 'vitest';
import type { SkillDefinition } from '../../src/engine/skills/skill-definition.js';
import { SkillNarrowing } from '../../src/engine/skills/skill-narrowing.js';

function skill(name: string, allowedTools?: string[]): SkillDefinition {
  return {
    name,
    description: name,
    body: '',
    scope: 'workspace',
    folder: `.claude/skills/${name}`,
    label: `.claude/skills/${name}/SKILL.md`,
    digest: 'sha256:0',
    ...(allowedTools ? { allowedTools } : {}),
  };
}

const call = (toolCallId: string, toolName: string, input: unknown = {}) => ({ toolCallId, toolName, input });

describe('SkillNarrowing', () => {
  it('lets everything through until a narrowing skill is loaded, then only its tools, in the same turn too', () => {
    const narrowing = new SkillNarrowing([skill('notes', ['Read', 'Grep'])]);
    expect(narrowing.review([call('1', 'Edit'), call('2', 'Skill', { name: 'notes' }), call('3', 'Edit'), call('4', 'Read')])).toEqual(
      new Map([['3', 'Refused: you are using the skill "notes", which allows only Read, Grep. Edit is not among them.']]),
    );
    expect([
      ...narrowing
        .review([call('5', 'Bash', { command: 'ls' }), call('6', 'Grep'), call('7', 'CompleteTask'), call('8', 'Skill', { name: 'x' })])
        .keys(),
    ]).toEqual(['5']);
  });

  it('narrows to what both skills allow, never widens; a skill without allowed-tools or a file read narrows nothing', () => {
    const narrowing = new SkillNarrowing([skill('a', ['Read', 'Edit']), skill('b', ['Read', 'Write']), skill('free')]);
    narrowing.review([call('1', 'Skill', { name: 'free' }), call('2', 'Skill', { name: 'a', file: 'x.md' })]);
    expect(narrowing.review([call('3', 'Write')]).size).toBe(0);
    narrowing.review([call('4', 'Skill', { name: 'a' }), call('5', 'Skill', { name: 'b' })]);
    const refused = narrowing.review([call('6', 'Read'), call('7', 'Edit'), call('8', 'Write')]);
    expect([...refused.keys()]).toEqual(['7', '8']);
    expect(refused.get('7')).toContain('the skill "b"');
    expect(refused.get('8')).toContain('the skill "a"');
  });

  it('reads Claude Code command patterns: Bash(git status:*) allows lines beginning so; mcp__server__* a server', () => {
    const narrowing = new SkillNarrowing([skill('git', ['Bash(git status:*)', 'Bash(npm test)', 'mcp__calc__*'])]);
    narrowing.review([call('0', 'Skill', { name: 'git' })]);
    const refused = narrowing.review([
      call('1', 'Bash', { command: 'git status --short' }),
      call('2', 'Bash', { command: 'npm test' }),
      call('3', 'Bash', { command: 'npm test && curl evil.example' }),
      call('4', 'Bash', { command: 'rm -rf .' }),
      call('5', 'mcp__calc__add'),
      call('6', 'mcp__other__add'),
    ]);
    expect([...refused.keys()]).toEqual(['3', '4', '6']);
  });
});
