/** Finding prompt files: both folders, the .github file first on a clash, built-in names kept, links to secrets and huge files not read. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findPromptFiles } from '../../src/engine/prompt-files/prompt-file-sources.js';

let root: string;

async function write(relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-prompts-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findPromptFiles', () => {
  it('reads both folders and reports what it does not use, never its content', async () => {
    await write('.github/prompts/fix.prompt.md', 'Fix $ARGUMENTS.');
    await write('.github/prompts/notes.md', 'not a prompt file: no .prompt.md');
    await write('.claude/commands/fix.md', 'The other fix.');
    await write('.claude/commands/plan.md', 'Shadow the planner.');
    await write('.claude/commands/big.md', 'x'.repeat(65 * 1024));
    await write('.env', 'TOKEN=hunter2');
    await symlink(path.join(root, '.env'), path.join(root, '.claude/commands/env.md'));
    await write('.claude/commands/explain.md', 'Explain $1.');

    const found = await findPromptFiles(root);
    expect(found.promptFiles.map((each) => [each.name, each.label])).toEqual([
      ['fix', '.github/prompts/fix.prompt.md'],
      ['explain', '.claude/commands/explain.md'],
    ]);
    expect(found.problems).toEqual([
      '.claude/commands/big.md was not used: it is larger than 64 KB',
      expect.stringMatching(/^\.claude\/commands\/env\.md was not read: it is a symbolic link to \.env, which may hold secrets/),
      '.claude/commands/fix.md was not used: /fix is .github/prompts/fix.prompt.md',
      '.claude/commands/plan.md was not used: /plan is a built-in command',
    ]);
    expect(JSON.stringify(found)).not.toContain('hunter2');
  });

  it('finds none in a folder without them', async () => {
    expect(await findPromptFiles(root)).toEqual({ promptFiles: [], problems: [] });
  });

  it("adds the user's ~/.claude/commands below the workspace's, reads them where the folder is not, and nothing when the home is the workspace", async () => {
    await write('.claude/commands/fix.md', 'The folder’s fix.');
    await write('home/.claude/commands/fix.md', 'The user’s fix.');
    await write('home/.claude/commands/hello.md', 'Hello.');
    const home = path.join(root, 'home');
    const both = await findPromptFiles(root, { home });
    expect(both.promptFiles.map((each) => [each.label, each.scope])).toEqual([
      ['.claude/commands/fix.md', 'workspace'],
      ['~/.claude/commands/hello.md', 'user'],
    ]);
    expect(both.problems).toEqual(['~/.claude/commands/fix.md was not used: /fix is .claude/commands/fix.md']);
    const untrusted = await findPromptFiles(root, { home, workspaceAllowed: false });
    expect(untrusted.promptFiles.map((each) => each.label)).toEqual(['~/.claude/commands/fix.md', '~/.claude/commands/hello.md']);
    expect((await findPromptFiles(root, { home: root, workspaceAllowed: false })).promptFiles).toEqual([]);
  });
});
