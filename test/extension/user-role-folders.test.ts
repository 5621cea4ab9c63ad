/**
 * The user's own roles in the extension: VS Code's user prompts folder (found beside the extension's global
 * storage) is a role location, `*.agent.md` and the older `*.chatmode.md`; the user's role folders are
 * watched, so a role written there (even in a folder created later) is there without a reload.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let home: string;
let extension: ActivatedExtension;
const userData = () => path.join(home, '.config', 'Code', 'User');
const role = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntools: ['read', 'search']\n---\nYou ${description.toLowerCase()}.\n`;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  await mkdir(path.join(userData(), 'prompts'), { recursive: true });
  await writeFile(path.join(userData(), 'prompts', 'designer.agent.md'), role('designer', 'Review UI copy'));
  await writeFile(path.join(userData(), 'prompts', 'planner-mode.chatmode.md'), role('planner-mode', 'Plan releases'));
  extension = activateExtension({
    environment: { HOME: home },
    globalStoragePath: path.join(userData(), 'globalStorage', 'agent-team.agent-team'),
  });
});

afterEach(async () => {
  await extension.cleanup();
  await rm(home, { recursive: true, force: true });
});

async function roles() {
  await extension.ready();
  const session = await extension.host.engine();
  await session.roles.load();
  return session.roles;
}

describe("the user's role folders in the extension", () => {
  it("reads VS Code's user prompts folder as GitHub's format, shown from the home", async () => {
    const registry = await roles();
    expect(registry.get('designer')?.source).toMatchObject({
      kind: 'file',
      format: 'github',
      path: '~/.config/Code/User/prompts/designer.agent.md',
    });
    expect(registry.get('designer')?.tools).toEqual(['Read', 'Glob', 'Grep']);
    expect(registry.get('planner-mode')?.source).toMatchObject({ path: '~/.config/Code/User/prompts/planner-mode.chatmode.md' });
  });

  it('watches the user folders: a role written in ~/.claude/agents, a folder that did not exist, arrives without a reload', async () => {
    const registry = await roles();
    expect(registry.get('translator')).toBeUndefined();
    const watching = (base: string, pattern: string) =>
      fake.state.watchers.filter((candidate) => candidate.base === base && candidate.pattern === pattern);
    expect(watching(path.join(userData(), 'prompts'), '*')).toHaveLength(1);
    // Each folder on its own, never the home or ~/.claude recursively.
    expect(
      fake.state.watchers.filter((candidate) => candidate.base.startsWith(home)).every((candidate) => !candidate.pattern.includes('/')),
    ).toBe(true);
    await mkdir(path.join(home, '.claude', 'agents'), { recursive: true });
    for (const created of watching(path.join(home, '.claude'), 'agents')) created.fire('create');
    await writeFile(
      path.join(home, '.claude', 'agents', 'translator.md'),
      '---\nname: translator\ndescription: Translate strings\n---\nTranslate.\n',
    );
    const files = watching(path.join(home, '.claude', 'agents'), '*');
    expect(files).toHaveLength(2);
    files.at(-1)!.fire();
    await expect
      .poll(() => registry.get('translator')?.source, { timeout: 5_000 })
      .toMatchObject({ path: '~/.claude/agents/translator.md' });
  });
});
