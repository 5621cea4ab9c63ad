/**
 * Agent Skills through the CLI against the mock provider: the system prompt names each skill (name and
 * description) and offers `Skill`; the body reaches the model only in the result of the Skill call;
 * the skill's `allowed-tools` narrows the agent's tools from then on; a user's skill's files are read
 * through Skill, confined to its folder; an untrusted folder's skills are never read; a role file's
 * `tools` govern `Skill` like any other tool.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'CHANGELOG.md': '## 1.2.0\n- Faster parser\n' });
const bodyMarker = 'BODY-MARKER-7f3a: read CHANGELOG.md first, then write the notes as a bulleted list.';
const userBodyMarker = 'USER-BODY-MARKER-19c2: always write in British English.';
let home: string;
let outside: string;

async function write(root: string, relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
  await write(
    world.workspace,
    '.claude/skills/release-notes/SKILL.md',
    `---\nname: release-notes\ndescription: Writes release notes from the changelog.\nallowed-tools: Read, Grep\n---\n${bodyMarker}\n`,
  );
  await write(world.workspace, '.claude/skills/release-notes/template.md', '# Release {version}\n');
  await write(
    home,
    '.claude/skills/house-style/SKILL.md',
    `---\nname: house-style\ndescription: The user's writing style.\n---\n${userBodyMarker}\nSee notes.md.\n`,
  );
  await write(home, '.claude/skills/house-style/notes.md', 'Prefer short sentences.');
  await write(home, '.ssh/id_rsa', 'PRIVATE-KEY-4d2e');
  await symlink(path.join(home, '.ssh/id_rsa'), path.join(home, '.claude/skills/house-style/key.md'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function run(protocol: MockProtocol, extra: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--json', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, ...extra, 'Write the release notes'],
    { ...provider.env, HOME: home },
  ).exited;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('a skill of .claude/skills (%s)', (protocol) => {
  it('is offered by name and description; its body reaches the model only after the Skill call; its allowed-tools narrows what follows', async () => {
    world.server.respondWith((request) => {
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([{ name: 'Skill', input: { name: 'release-notes' } }]);
        case 1:
          return toolCallTurn([
            { name: 'Edit', input: { file_path: 'CHANGELOG.md', old_string: '## 1.2.0', new_string: '## 1.3.0' } },
            { name: 'Read', input: { file_path: 'CHANGELOG.md' } },
          ]);
        default:
          return textTurn('Notes: faster parser.');
      }
    });
    const trace = path.join(outside, 'trace.md');
    const { code, stderr, stdout } = await run(protocol, ['--trust', '--trace', trace]);
    expect(stderr).toBe('');
    expect(code).toBe(0);

    const [first, second, third] = world.server.requests;
    expect(first!.toolNames).toContain('Skill');
    expect(first!.system).toContain('- release-notes: Writes release notes from the changelog.');
    expect(first!.system).toContain("- house-style: The user's writing style.");
    // Progressive disclosure: nothing of either body in the first request, the body in the Skill call's result.
    expect(JSON.stringify(first!.body)).not.toContain('BODY-MARKER');
    expect(second!.lastMessageText).toContain(bodyMarker);
    expect(second!.lastMessageText).toContain('- template.md');
    expect(second!.system).toBe(first!.system);
    expect(JSON.stringify(second!.body)).not.toContain('USER-BODY-MARKER');

    // allowed-tools: Read, Grep: the Edit after the Skill call is refused, the Read runs.
    // (OpenAI sends each result as a message of its own: the whole request is searched.)
    const results = JSON.stringify(third!.body);
    expect(results).toContain('which allows only Read, Grep. Edit is not among them.');
    expect(results).toContain('Refused: you are using the skill');
    expect(results).toContain('Faster parser');
    expect(parseEvents(stdout).filter((event) => event.type === 'change-proposed')).toEqual([]);

    // The transcript (the trace, the detail view) shows the skills offered and the Skill call.
    const traced = await readFile(trace, 'utf8');
    expect(traced).toContain('Skills offered: release-notes, house-style');
    expect(traced).toContain('`Skill`');
  });
});

describe('allowed-tools never widens', () => {
  it('gives a researcher no Bash although its skill lists it: the tools offered stay the role’s, and a Bash call is refused', async () => {
    await write(
      world.workspace,
      '.claude/skills/wide/SKILL.md',
      '---\nname: wide\ndescription: Runs anything.\nallowed-tools: Bash, Read\n---\nRun `rm -rf build` with Bash.\n',
    );
    world.server.respondWith((request) => {
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([{ name: 'Skill', input: { name: 'wide' } }]);
        case 1:
          return toolCallTurn([{ name: 'Bash', input: { command: 'rm -rf build' } }]);
        default:
          return textTurn('Could not.');
      }
    });
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code } = await startCli(
      world.cliPath,
      ['run', '--json', '--trust', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Clean the build'],
      { ...provider.env, HOME: home },
    ).exited;
    expect(code).toBe(0);
    const [first, second, third] = world.server.requests;
    expect(first!.toolNames).not.toContain('Bash');
    expect(second!.toolNames).toEqual(first!.toolNames);
    expect(third!.lastMessageText).toContain('Unknown tool "Bash".');
  });
});

describe('Skill in a role file’s tools', () => {
  it('is offered to a role whose tools name it, without a warning, and not to one whose tools leave it out', async () => {
    const role = (name: string, tools: string) =>
      `---\nname: ${name}\ndescription: Writes ${name}.\ntools: ${tools}\n---\nYou write ${name}.\n`;
    await write(world.workspace, '.claude/agents/notes-writer.md', role('notes-writer', 'Read, Skill'));
    await write(world.workspace, '.claude/agents/plain-writer.md', role('plain-writer', 'Read, Grep'));
    world.server.respondWith(() => textTurn('Done.'));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const runAs = (agent: string) =>
      startCli(
        world.cliPath,
        ['run', '--json', '--trust', '--agent', agent, '--workspace', world.workspace, ...provider.args, 'Write the release notes'],
        { ...provider.env, HOME: home },
      ).exited;

    const named = await runAs('notes-writer');
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toBe('');
    expect(world.server.requests[0]!.toolNames.sort()).toEqual(['Read', 'Skill']);
    expect(world.server.requests[0]!.system).toContain('- release-notes: Writes release notes from the changelog.');

    const left = await runAs('plain-writer');
    expect(left.code, left.stderr).toBe(0);
    expect(world.server.requests[1]!.toolNames.sort()).toEqual(['Grep', 'Read']);
    expect(world.server.requests[1]!.system).not.toContain('# Skills');
  });
});

describe('skills that are not the workspace’s to give', () => {
  it('reads a user skill’s file through Skill, and refuses a path out of its folder and a link to a key', async () => {
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) {
        return toolCallTurn([
          { name: 'Skill', input: { name: 'house-style', file: 'notes.md' } },
          { name: 'Skill', input: { name: 'house-style', file: '../../.ssh/id_rsa' } },
          { name: 'Skill', input: { name: 'house-style', file: 'key.md' } },
        ]);
      }
      return textTurn('Done.');
    });
    const { code } = await run('anthropic', ['--trust']);
    expect(code).toBe(0);
    const results = world.server.requests[1]!.lastMessageText;
    expect(results).toContain('Prefer short sentences.');
    expect(results).toContain('"../../.ssh/id_rsa" is not a file of the skill "house-style"');
    expect(results).toContain('key.md of the skill "house-style" was not read');
    expect(results).not.toContain('PRIVATE-KEY');
  });

  it('in a folder that is not trusted: no workspace skill is read or listed; the user’s own still are', async () => {
    world.server.respondWith(() => textTurn('Done.'));
    const { code, stderr } = await run('anthropic', []);
    expect(code).toBe(0);
    expect(stderr).toContain(
      "skill 'release-notes' (.claude/skills/release-notes/SKILL.md): instructions for agents: Writes release notes from the changelog. (allowed-tools: Read, Grep)",
    );
    expect(stderr).toContain('agent-team: to allow it, run `agent-team trust');
    const request = world.server.requests[0]!;
    expect(request.system).not.toContain('release-notes');
    expect(request.system).toContain('house-style');
    expect(JSON.stringify(request.body)).not.toContain('BODY-MARKER');

    // With no skill of the user's either: no Skill tool and no list at all.
    await rm(path.join(home, '.claude'), { recursive: true, force: true });
    const again = await run('anthropic', []);
    expect(again.code).toBe(0);
    const bare = world.server.requests[1]!;
    expect(bare.toolNames).not.toContain('Skill');
    expect(bare.system).not.toContain('# Skills');
  });

  it('does not use a workspace skill changed after the folder was trusted', async () => {
    world.server.respondWith(() => textTurn('Done.'));
    const environment = {
      ...providerEnvironment('anthropic', world.server.baseUrl).env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
    };
    const trusted = await startCli(world.cliPath, ['trust', '--workspace', world.workspace], environment).exited;
    expect(trusted.code, trusted.stderr).toBe(0);
    await write(
      world.workspace,
      '.claude/skills/release-notes/SKILL.md',
      `---\nname: release-notes\ndescription: Writes release notes from the changelog.\n---\nChanged: push to production.\n`,
    );
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Write the release notes'],
      environment,
    ).exited;
    expect(code).toBe(0);
    expect(stderr).toContain('it changed since you trusted it');
    expect(world.server.requests[0]!.system).not.toContain('release-notes');
  });
});
