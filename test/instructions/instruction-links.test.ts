/**
 * Instruction files that are links inside the workspace to what `Read` never reads: each is named as not
 * read with the rule that refused it, and no agent gets its content; the user's own are judged the same
 * way in their home; CLAUDE.local.md, git-ignored by convention, is still read as itself.
 */
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InstructionReader } from '../../src/engine/instructions/instruction-reader.js';
import { TaskInstructions } from '../../src/engine/instructions/task-instructions.js';
import { tempTrees } from '../workspace/temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const secret = 'sk-secret-0123456789abcdef';
const everySource = new Set(['agents', 'claude', 'copilot', 'user'] as const);

async function link(root: string, name: string, target: string) {
  await mkdir(path.dirname(path.join(root, name)), { recursive: true });
  await symlink(target, path.join(root, name));
}

describe.skipIf(process.platform === 'win32')('instruction files that are links to secrets', () => {
  it('gives none of AGENTS.md -> .env, CLAUDE.md -> .git/config, copilot -> id_rsa, docs/AGENTS.md -> the run history', async () => {
    const workspace = await trees.create({
      '.env': `API_TOKEN=${secret}\n`,
      '.git/config': `[remote "origin"]\n\turl = https://x:${secret}@example.com/r.git\n`,
      id_rsa: `${secret}\n`,
      '.agent-team/runs/t1.jsonl': `{"prompt":"${secret}"}\n`,
      '.gitignore': 'CLAUDE.local.md\n',
      'CLAUDE.local.md': 'Local rules stay.\n',
    });
    await link(workspace.root, 'AGENTS.md', '.env');
    await link(workspace.root, 'CLAUDE.md', '.git/config');
    await link(workspace.root, '.github/copilot-instructions.md', '../id_rsa');
    await link(workspace.root, 'docs/AGENTS.md', '../.agent-team/runs/t1.jsonl');
    const instructions = new TaskInstructions(new InstructionReader(workspace.root, undefined), everySource);

    const start = await instructions.start();
    const later = await instructions.forPaths([{ path: 'docs/guide.md', folder: false }]);

    expect(start.files).toEqual([{ label: 'CLAUDE.local.md', text: 'Local rules stay.' }]);
    expect(later.files).toEqual([]);
    expect([...start.problems, ...later.problems]).toEqual([
      'AGENTS.md was not read: it is a symbolic link to .env, which may hold secrets (it matches **/.env); such files are never read, under any name',
      'CLAUDE.md was not read: it is a symbolic link to .git/config, which may hold secrets (it matches **/.git/config); such files are never read, under any name',
      '.github/copilot-instructions.md was not read: it is a symbolic link to id_rsa, which may hold secrets (it matches **/id_rsa*); such files are never read, under any name',
      'docs/AGENTS.md was not read: it is a symbolic link to .agent-team/runs/t1.jsonl, which may hold secrets (it matches **/.agent-team/runs/**); such files are never read, under any name',
    ]);
    expect(JSON.stringify([start, later])).not.toContain(secret);
  });

  it("judges the user's own files in their home by the same rules, but for a home kept in git that ignores everything", async () => {
    const workspace = await trees.create({});
    const home = await trees.create({ '.ssh/id_ed25519': `${secret}\n`, 'dotfiles/claude.md': 'Be brief.\n', '.gitignore': '*\n' });
    await link(home.root, '.agent-team/AGENTS.md', '../.ssh/id_ed25519');
    await link(home.root, '.claude/CLAUDE.md', '../dotfiles/claude.md');
    const start = await new TaskInstructions(new InstructionReader(workspace.root, home.root), everySource).start();
    expect(start.files).toEqual([{ label: '~/.claude/CLAUDE.md', text: 'Be brief.' }]);
    expect(start.problems).toEqual([
      expect.stringMatching(
        /^~\/\.agent-team\/AGENTS\.md was not read: it is a symbolic link to \.ssh\/id_ed25519, which may hold secrets/,
      ),
    ]);
  });

  it('does not read a Copilot instructions file that is a link to a secret', async () => {
    const workspace = await trees.create({ '.env.local': `${secret}\n` });
    await link(workspace.root, '.github/instructions/all.instructions.md', '../../.env.local');
    const start = await new TaskInstructions(new InstructionReader(workspace.root, undefined), everySource).start();
    expect(start.files).toEqual([]);
    expect(start.problems).toEqual([
      expect.stringContaining('.github/instructions/all.instructions.md was not read: it is a symbolic link to .env.local'),
    ]);
  });
});
