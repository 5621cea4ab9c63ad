/** SKILL.md as the Agent Skills format has it: the name is the folder's, a description is required, allowed-tools a list or a string. */
import { describe, expect, it } from 'vitest';
import { parseSkillFile, skillLimits } from '../../src/engine/skills/skill-definition.js';

const place = {
  folder: '.claude/skills/pdf',
  folderName: 'pdf',
  label: '.claude/skills/pdf/SKILL.md',
  scope: 'workspace' as const,
  digest: 'sha256:1',
  cut: false,
};

describe('parseSkillFile', () => {
  it('reads name, description, allowed-tools (Claude Code’s string or a list) and the body', () => {
    const parsed = parseSkillFile(
      '---\nname: pdf\ndescription: Fills PDF forms.\nallowed-tools: Read, Bash(python3 scripts/fill.py:*)\n---\n# PDF\nRun the script.\n',
      place,
    );
    expect(parsed).toEqual({
      skill: expect.objectContaining({
        name: 'pdf',
        description: 'Fills PDF forms.',
        allowedTools: ['Read', 'Bash(python3 scripts/fill.py:*)'],
        body: '# PDF\nRun the script.',
      }),
    });
    expect(parseSkillFile('---\ndescription: d\nallowed-tools: [Read, Grep]\n---\nx', place)).toEqual({
      skill: expect.objectContaining({ name: 'pdf', allowedTools: ['Read', 'Grep'] }),
    });
  });

  it('refuses, naming the file and never echoing it: another name than the folder’s, no description, bad fields', () => {
    expect(parseSkillFile('---\nname: other\ndescription: d\n---\nx', place)).toEqual({
      problem:
        '.claude/skills/pdf/SKILL.md was not used: its name "other" is not its folder\'s ("pdf"), as the Agent Skills format requires',
    });
    expect(parseSkillFile('---\nname: pdf\n---\nsecret-ish body', place)).toEqual({
      problem: '.claude/skills/pdf/SKILL.md was not used: it has no description (agents choose a skill by its description)',
    });
    expect(parseSkillFile('---\ndescription: d\nallowed-tools: {a: 1}\n---\nx', place)).toMatchObject({
      problem: expect.stringContaining('allowed-tools'),
    });
    expect(parseSkillFile('no front matter: hunter2', place)).toMatchObject({ problem: expect.not.stringContaining('hunter2') });
    expect(parseSkillFile('---\ndescription: d\n---\nx', { ...place, folderName: 'Bad Name' })).toMatchObject({
      problem: expect.stringContaining('lower-case letters'),
    });
  });

  it('keeps a description to one line of at most 1024 characters, and says where a long file was cut', () => {
    const parsed = parseSkillFile(`---\ndescription: |\n  line one\n  ${'x'.repeat(2000)}\n---\nbody`, { ...place, cut: true });
    if (!('skill' in parsed)) throw new Error(parsed.problem);
    expect(parsed.skill.description.length).toBe(skillLimits.descriptionChars);
    expect(parsed.skill.description.startsWith('line one x')).toBe(true);
    expect(parsed.skill.body).toContain('[.claude/skills/pdf/SKILL.md is cut here: only the first 64 KB of a skill are given.]');
  });
});
