import { describe, expect, it } from 'vitest';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { resolveRoleTools, isReadOnlyRole } from '../../src/engine/roles/role-tools.js';
import { defaultWorkspaceRoleTools } from '../../src/engine/roles/tool-names.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

describe('role tools', () => {
  it('warns about an unknown tool and loads the role with the known ones', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/searcher.md', roleFile('description: Searches.\ntools: [Read, Teleport, grep]'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(roles.find((role) => role.name === 'searcher')?.tools).toEqual(['Read', 'Grep']);
    expect(diagnostics).toEqual([
      {
        path: '.agent-team/agents/searcher.md',
        severity: 'warning',
        line: 3,
        message:
          "unknown tool 'Teleport'; the role loads without it (known tools: Read, Glob, Grep, Edit, Write, Bash, WebFetch, Skill, Agent, TaskOutput, TaskStop, SendMessage)",
      },
    ]);
  });

  it("maps Claude Code's tools we have, warns of a dropped restriction, and keeps an MCP server's tool for the configured servers", async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.claude/agents/builder.md',
      roleFile('description: Builds.\ntools: Read, Bash(npm test:*, npm run:*), WebFetch, mcp__github__search, Edit'),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(roles.find((role) => role.name === 'builder')?.tools).toEqual(['Read', 'Bash', 'WebFetch', 'Edit']);
    // `.mcp.json`'s server 'github' (or the user's), started for this role when it runs (configured-servers-capability.ts).
    expect(roles.find((role) => role.name === 'builder')?.serverTools).toEqual(['mcp__github__search']);
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "tool restriction 'Bash(npm test:*, npm run:*)' is not supported; the role gets Bash without it (which commands run is still up to the user: agentTeam.allowedCommands, --allow-command, or their approval)",
    ]);
  });

  it('keeps the tool of a restricted Agent(…) entry and warns that the restriction is dropped', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.claude/agents/lead.md', roleFile('description: Leads.\ntools: Read, Agent(researcher, reviewer)'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(roles.find((role) => role.name === 'lead')?.tools).toEqual(['Read', 'Agent']);
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      expect.stringContaining("restriction 'Agent(researcher, reviewer)' is not supported"),
    ]);
  });

  it('maps Copilot tool sets and warns about MCP servers and shell tools', async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.github/agents/mixed.agent.md',
      roleFile("description: Mixed.\ntools: ['search/codebase', 'edit/editFiles', 'execute', 'github/*']"),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(roles.find((role) => role.name === 'mixed')?.tools).toEqual(['Glob', 'Grep', 'Read', 'Edit', 'Write', 'Bash']);
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "'github/*': Copilot tool that Agent Team does not have; the role loads without it",
    ]);
  });

  it('reports a tools field that is not a list of names as an error', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/odd.md', roleFile('description: Odd.\ntools: {Read: true}'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(roles.some((role) => role.name === 'odd')).toBe(false);
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', line: 3, message: expect.stringContaining("'tools' must be a list") }),
    ]);
  });

  it('resolves a role without an allowlist to reading and proposing edits, without delegation', () => {
    expect(resolveRoleTools({})).toEqual([...defaultWorkspaceRoleTools]);
    expect(resolveRoleTools({})).not.toContain('Agent');
    expect(resolveRoleTools({ tools: [] })).toEqual([]);
    expect(isReadOnlyRole({ tools: ['Read', 'Grep'] })).toBe(true);
    expect(isReadOnlyRole({})).toBe(false);
  });
});
