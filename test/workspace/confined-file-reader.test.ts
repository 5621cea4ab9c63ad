/**
 * The one confined reader judges a file by where it really leads, with `Read`'s rules: a link inside the
 * workspace to `.env`, `.git/config`, a key, the run history, version-control internals or an ignored
 * file is refused, naming the rule and never the content; an ignored file read by its own name is read;
 * a FIFO does not hang it; a large file is cut.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfinedFileReader, type ConfinedReadOutcome } from '../../src/engine/workspace/confined-file-reader.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const secret = 'sk-secret-0123456789abcdef';

async function workspace() {
  const tree = await trees.create({
    '.env': `API_TOKEN=${secret}\n`,
    '.git/config': `[remote "origin"]\n\turl = https://x:${secret}@example.com/r.git\n`,
    '.git/HEAD': `ref: refs/heads/${secret}\n`,
    id_rsa: `-----BEGIN OPENSSH PRIVATE KEY-----\n${secret}\n`,
    '.agent-team/runs/t1.jsonl': `{"prompt":"${secret}"}\n`,
    '.gitignore': 'CLAUDE.local.md\nprivate/\nnotes.txt\n',
    'private/plan.md': `The plan: ${secret}\n`,
    'notes.txt': `Notes: ${secret}\n`,
    'CLAUDE.local.md': 'My own rules.\n',
    'shared/rules.md': 'Shared rules.\n',
  });
  const link = async (name: string, target: string) => {
    await mkdir(path.dirname(tree.path(name)), { recursive: true });
    await symlink(target, tree.path(name));
  };
  return { tree, link, reader: new ConfinedFileReader(tree.root) };
}

function refusal(outcome: ConfinedReadOutcome): string {
  expect(outcome).toBeDefined();
  expect(JSON.stringify(outcome)).not.toContain(secret);
  if (!outcome || !('refused' in outcome)) throw new Error(`read, not refused: ${JSON.stringify(outcome)}`);
  return outcome.refused;
}

function text(outcome: ConfinedReadOutcome): string {
  if (!outcome || !('read' in outcome)) throw new Error(`not read: ${JSON.stringify(outcome)}`);
  return outcome.read.text;
}

describe.skipIf(process.platform === 'win32')('the confined reader', () => {
  it('refuses AGENTS.md -> .env, naming the rule', async () => {
    const { link, reader } = await workspace();
    await link('AGENTS.md', '.env');
    expect(refusal(await reader.read('AGENTS.md', 1024))).toBe(
      'it is a symbolic link to .env, which may hold secrets (it matches **/.env); such files are never read, under any name',
    );
  });

  it('refuses CLAUDE.md -> .git/config and a link to any other file of .git/', async () => {
    const { link, reader } = await workspace();
    await link('CLAUDE.md', '.git/config');
    await link('HEAD.md', '.git/HEAD');
    expect(refusal(await reader.read('CLAUDE.md', 1024))).toContain(
      'it is a symbolic link to .git/config, which may hold secrets (it matches **/.git/config)',
    );
    expect(refusal(await reader.read('HEAD.md', 1024))).toBe(
      'it is a symbolic link to .git/HEAD, which is version-control internals; they are never read',
    );
  });

  it('refuses .github/copilot-instructions.md -> id_rsa (a key inside the workspace)', async () => {
    const { link, reader } = await workspace();
    await link('.github/copilot-instructions.md', '../id_rsa');
    expect(refusal(await reader.read('.github/copilot-instructions.md', 1024))).toContain(
      'it is a symbolic link to id_rsa, which may hold secrets (it matches **/id_rsa*)',
    );
  });

  it('refuses docs/AGENTS.md -> .agent-team/runs/t1.jsonl (the run history)', async () => {
    const { link, reader } = await workspace();
    await link('docs/AGENTS.md', '../.agent-team/runs/t1.jsonl');
    expect(refusal(await reader.read('docs/AGENTS.md', 1024))).toContain('which may hold secrets (it matches **/.agent-team/runs/**)');
  });

  it('refuses a link to an ignored file, or into an ignored folder, and reads an ignored file by its own name', async () => {
    const { link, reader } = await workspace();
    await link('AGENTS.md', 'notes.txt');
    await link('docs/CLAUDE.md', '../private/plan.md');
    expect(refusal(await reader.read('AGENTS.md', 1024))).toBe(
      "it is a symbolic link to notes.txt, which git ignores; a link to an ignored file is not read (ignored files are where this machine's own secrets live)",
    );
    expect(refusal(await reader.read('docs/CLAUDE.md', 1024))).toContain('which git ignores');
    expect(text(await reader.read('CLAUDE.local.md', 1024))).toBe('My own rules.\n');
  });

  it('refuses a link through a linked folder to a secret, and a secret or .git/ by its own name', async () => {
    const { link, reader } = await workspace();
    await link('config', '.git');
    expect(refusal(await reader.read('config/config', 1024))).toContain('it is a symbolic link to .git/config');
    expect(refusal(await reader.read('.env', 1024))).toBe('it may hold secrets (it matches **/.env), and such files are never read');
    expect(refusal(await reader.read('.git/HEAD', 1024))).toBe('it is version-control internals, which are never read');
  });

  it('reads a link to an ordinary file inside, refuses one that leads outside, and says nothing of a missing file', async () => {
    const { link, reader } = await workspace();
    await link('AGENTS.md', 'shared/rules.md');
    await link('CLAUDE.md', '/etc/hostname');
    expect(text(await reader.read('AGENTS.md', 1024))).toBe('Shared rules.\n');
    expect(refusal(await reader.read('CLAUDE.md', 1024))).toBe('it is (or lies under) a symbolic link that leads outside the workspace');
    expect(await reader.read('missing.md', 1024)).toBeUndefined();
    await link('dangling.md', 'nowhere.md');
    expect(await reader.read('dangling.md', 1024)).toBeUndefined();
  });

  it('does not hang on a FIFO, nor on a .gitignore that is one, and cuts a large file', async () => {
    const { tree, link, reader } = await workspace();
    execFileSync('mkfifo', [tree.path('AGENTS.md')]);
    expect(refusal(await reader.read('AGENTS.md', 1024))).toBe('it is not a regular file (a FIFO), so it is not read');
    await tree.write('docs/big.md', 'x'.repeat(5000));
    execFileSync('mkfifo', [tree.path('docs/.gitignore')]);
    await link('CLAUDE.md', 'docs/big.md');
    const cut = await reader.read('CLAUDE.md', 1000);
    expect(cut && 'read' in cut ? [cut.read.text.length, cut.read.size, cut.read.cut] : cut).toEqual([1000, 5000, true]);
  });

  it('refuses a link to a device', async () => {
    const { link, reader } = await workspace();
    await link('AGENTS.md', '/dev/zero');
    expect(refusal(await reader.read('AGENTS.md', 1024))).toContain('leads outside the workspace');
  });

  it('reads nothing from a folder that does not exist', async () => {
    expect(await new ConfinedFileReader('/nonexistent/agent-team-folder').read('AGENTS.md', 1024)).toBeUndefined();
  });
});
