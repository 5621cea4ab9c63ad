/** The skills capability: read at each task's start; the folder's only where it is trusted, and only as it was trusted. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilityTask } from '../../src/engine/capabilities/capability.js';
import { skillsCapability } from '../../src/engine/skills/skills-capability.js';

let root: string;
const task = { agent: { tools: ['Read', 'Skill'] } } as unknown as CapabilityTask;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-skills-'));
  await mkdir(path.join(root, '.github/skills/lint'), { recursive: true });
  await writeFile(path.join(root, '.github/skills/lint/SKILL.md'), '---\ndescription: Lints the code.\n---\nRun the linter.\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('skillsCapability', () => {
  it('offers Skill and the list where the folder is trusted', async () => {
    const grant = await skillsCapability({ root, workspaceAllowed: () => true }).grant(task);
    expect(grant?.tools?.map((tool) => tool.name)).toEqual(['Skill']);
    expect(grant?.instructions).toContain('- lint: Lints the code.');
    expect(grant?.instructions).not.toContain('Run the linter.');
    expect(grant?.notices).toEqual(['Skills offered: lint']);
  });

  it('gives nothing where the folder is not trusted, and not a skill changed since the user trusted it', async () => {
    expect(await skillsCapability({ root, workspaceAllowed: () => false }).grant(task)).toBeUndefined();
    const changed = await skillsCapability({ root, workspaceAllowed: () => true, trustsSkill: () => false }).grant(task);
    expect(changed?.tools).toBeUndefined();
    expect(changed?.notices).toEqual([
      '.github/skills/lint/SKILL.md was not used: it was added or changed after the folder was trusted (trust it again to use it)',
    ]);
  });

  it('gives nothing to an agent whose role leaves Skill out of its tools', async () => {
    const withoutSkill = { agent: { tools: ['Read', 'Grep'] } } as unknown as CapabilityTask;
    expect(await skillsCapability({ root, workspaceAllowed: () => true }).grant(withoutSkill)).toBeUndefined();
  });
});
