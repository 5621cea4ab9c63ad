/**
 * The user's own roles (~/.agent-team/agents, ~/.claude/agents, ~/.copilot/agents) through the CLI: listed
 * with where they come from, below the workspace's on a name clash, and runnable like any role.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'README.md': '# Demo\n' });
let home: string;

async function write(root: string, relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  await write(
    home,
    '.claude/agents/linter.md',
    "---\nname: linter\ndescription: Lints with the user's own rules.\ntools: Read, Grep\n---\nYou are the user's linter.",
  );
  await write(home, '.copilot/agents/writer.agent.md', '---\ndescription: Writes release notes.\n---\nYou write release notes.');
  await write(home, '.agent-team/agents/tester.md', "---\ndescription: The user's tester.\n---\nYou are the user's tester.");
  await write(
    world.workspace,
    '.agent-team/agents/tester.md',
    "---\ndescription: The project's tester.\n---\nYou are the project's tester.",
  );
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("the user's own roles", () => {
  it('are listed with their source, and the workspace wins on a name clash', async () => {
    const { code, stdout } = await startCli(world.cliPath, ['agents', '--workspace', world.workspace], { HOME: home }).exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(/linter\s+~\/\.claude\/agents\/linter\.md/);
    expect(stdout).toMatch(/writer\s+~\/\.copilot\/agents\/writer\.agent\.md/);
    expect(stdout).toMatch(/tester\s+\.agent-team\/agents\/tester\.md \(overrides ~\/\.agent-team\/agents\/tester\.md\)/);
    expect(stdout).toContain("The project's tester.");
    expect(stdout).not.toContain("The user's tester.");
  });

  it('run like any role', async () => {
    world.server.respondWith(() => textTurn('No lint problems.'));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'linter', '--workspace', world.workspace, ...provider.args, 'Lint README.md'],
      { ...provider.env, HOME: home },
    ).exited;
    expect(code).toBe(0);
    expect(world.server.requests[0]!.system).toContain("You are the user's linter.");
    expect(world.server.requests[0]!.toolNames).toEqual(['Read', 'Grep']);
  });
});

describe('imported role files, understood', () => {
  it("maps Claude Code's model aliases to Anthropic's models, and to the run's own model elsewhere", async () => {
    await write(
      world.workspace,
      '.claude/agents/quick.md',
      '---\nname: quick\ndescription: Answers quickly.\nmodel: haiku\n---\nYou answer quickly.',
    );
    world.server.respondWith(() => textTurn('Quick answer.'));
    for (const protocol of ['anthropic', 'openai'] as const) {
      const provider = providerEnvironment(protocol, world.server.baseUrl);
      const { code } = await startCli(
        world.cliPath,
        ['run', '--json', '--agent', 'quick', '--model', 'the-run-model', '--workspace', world.workspace, ...provider.args, 'Hi'],
        { ...provider.env, HOME: home },
      ).exited;
      expect(code).toBe(0);
    }
    expect(world.server.requests.map((request) => request.model)).toEqual(['claude-haiku-4-5', 'the-run-model']);
  });

  it("reads a GitHub agent file's mcp-servers as its MCP servers", async () => {
    await write(
      world.workspace,
      '.github/agents/docs.agent.md',
      "---\ndescription: Knows the docs.\nmcp-servers:\n  docs:\n    type: local\n    command: docs-server\n    args: ['--stdio']\n    tools: ['*']\n---\nYou know the docs.",
    );
    const { code, stdout, stderr } = await startCli(world.cliPath, ['agents', '--workspace', world.workspace], { HOME: home }).exited;
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/docs\s+\.github\/agents\/docs\.agent\.md[\s\S]*MCP servers: docs/);
  });
});
