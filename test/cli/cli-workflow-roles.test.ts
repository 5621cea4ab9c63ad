/**
 * `agent-team workflows` and `agent-team run --workflow` know the same roles (issue 42): both read the
 * workspace's and the user's role files through the engine (engine-roles.ts). A workflow naming the user's
 * own role (~/.claude/agents/linter.md) is sound for both; one naming a role nobody defines is refused by
 * both, with the same problem, exit 2.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { parseEvents, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'README.md': '# Demo\n' });
let home: string;

async function write(root: string, relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

const workflowNaming = (role: string) =>
  `description: Lint the project.\ntype: sequential\nsteps:\n  - agent: ${role}\n    prompt: "Lint {input}."\n    description: Lint\n`;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  await write(
    home,
    '.claude/agents/linter.md',
    "---\nname: linter\ndescription: Lints with the user's own rules.\ntools: Read, Grep\n---\nYou are the user's linter.",
  );
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function runWorkflow(name: string) {
  const provider = providerEnvironment('anthropic', world.server.baseUrl);
  return startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, '--workflow', name, 'README.md'], {
    ...provider.env,
    HOME: home,
  }).exited;
}

describe('workflows and run --workflow see the same roles', () => {
  it("accept a workflow naming the user's own role (~/.claude/agents/linter.md) in both", async () => {
    await write(world.workspace, '.agent-team/workflows/lint.yaml', workflowNaming('linter'));
    const listed = await startCli(world.cliPath, ['workflows', '--workspace', world.workspace], { HOME: home }).exited;
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(listed.stdout).toContain('lint  .agent-team/workflows/lint.yaml · sequential');

    world.server.respondWith(() => textTurn('No lint problems.'));
    const run = await runWorkflow('lint');
    expect(run.code).toBe(0);
    const starts = parseEvents(run.stdout).filter((event) => event.type === 'task-start');
    expect(starts.map((event) => event.role)).toContain('linter');
    expect(world.server.requests.some((request) => request.system.includes("You are the user's linter."))).toBe(true);
  });

  it('refuse a workflow naming an unknown role in both, the same way (exit 2, the same problem)', async () => {
    await write(world.workspace, '.agent-team/workflows/lint.yaml', workflowNaming('ghost'));
    const listed = await startCli(world.cliPath, ['workflows', '--workspace', world.workspace], { HOME: home }).exited;
    expect(listed.code).toBe(2);
    const problem = listed.stderr.trim();
    expect(problem).toMatch(/^\.agent-team\/workflows\/lint\.yaml:4: steps\[0\]\.agent: .*ghost/);

    const run = await runWorkflow('lint');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`The workflow "lint" cannot run:\n  ${problem}`);
    expect(world.server.requests).toHaveLength(0);
  });
});
