/**
 * The gate in front of roles' MCP servers, on its own: a folder's role starts nothing where the folder is
 * not trusted; without a sandbox no stdio server starts, whoever defined it (an http one may); the user's
 * roles pass in an untrusted folder; a profile that does not say where its role came from counts as the
 * folder's. What is held back is named, with why; what is kept reaches the capability behind.
 */
import { describe, expect, it } from 'vitest';
import type { AgentProfile, Capability, CapabilityTask } from '../../src/engine/capabilities/capability.js';
import type { McpServers } from '../../src/engine/roles/mcp-server-config.js';
import { gatedServers } from '../../src/engine/team/server-gate.js';

const servers: McpServers = {
  local: { type: 'stdio', command: 'node', args: ['server.js'], env: {} },
  remote: { type: 'http', url: 'https://mcp.example/', headers: {} },
};

/** The capability behind the gate: records which servers it was asked to start. */
function recording(): { capability: Capability; started: string[][] } {
  const started: string[][] = [];
  return {
    started,
    capability: { name: 'mcp', grant: (task) => (started.push(Object.keys(task.agent.mcpServers ?? {})), { notices: ['started'] }) },
  };
}

const task = (agent: Partial<AgentProfile>): CapabilityTask =>
  ({
    agent: { role: 'researcher', tools: [], mayDelegate: false, reach: [], depth: 0, mcpServers: servers, ...agent },
  }) as unknown as CapabilityTask;

function gate(options: { trusted: boolean; noSandbox?: string }) {
  return { workspaceTrusted: () => options.trusted, sandboxRefusal: async () => options.noSandbox, howToTrust: 'run `agent-team trust`' };
}

describe('the server gate', () => {
  it("holds back every server of the folder's role where the folder is not trusted, and says why", async () => {
    const inner = recording();
    const grant = await gatedServers(inner.capability, gate({ trusted: false })).grant(task({ origin: 'workspace' }));
    expect(inner.started).toEqual([]);
    expect(grant?.notices).toEqual([
      "MCP server 'local' was not started: role 'researcher' is defined by this folder, which is not trusted (run `agent-team trust`).",
      "MCP server 'remote' was not started: role 'researcher' is defined by this folder, which is not trusted (run `agent-team trust`).",
    ]);
    expect(grant?.instructions).toContain('# Unavailable tools');
  });

  it('counts a profile without an origin as the folder\u2019s', async () => {
    const inner = recording();
    await gatedServers(inner.capability, gate({ trusted: false })).grant(task({}));
    expect(inner.started).toEqual([]);
  });

  it("lets the user's own role's servers start in an untrusted folder, and a trusted folder's", async () => {
    for (const [origin, trusted] of [
      ['user', false],
      ['workspace', true],
    ] as const) {
      const inner = recording();
      const grant = await gatedServers(inner.capability, gate({ trusted })).grant(task({ origin }));
      expect(inner.started).toEqual([['local', 'remote']]);
      expect(grant?.notices).toEqual(['started']);
    }
  });

  it('starts no stdio server without a sandbox, whoever defined it; an http one still starts', async () => {
    for (const origin of ['user', 'workspace'] as const) {
      const inner = recording();
      const grant = await gatedServers(inner.capability, gate({ trusted: true, noSandbox: 'there is no OS sandbox here' })).grant(
        task({ origin }),
      );
      expect(inner.started).toEqual([['remote']]);
      expect(grant?.notices).toEqual(['started', "MCP server 'local' was not started: there is no OS sandbox here."]);
    }
  });
});
