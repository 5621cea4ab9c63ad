/**
 * The boundary around roles' MCP servers, in front of the capability that starts them: a role file of the
 * folder starts no server (and reaches no address) where the folder is not trusted; and where there is no
 * OS sandbox, no stdio server starts at all, whoever defined it (it would run as the user, in the
 * repository's folder), unless the user turned the sandbox off. The user's own roles' servers run in an
 * untrusted folder, in the sandbox. Each server held back is named in the task's transcript and its
 * agent's instructions, with why.
 */
import type { Capability, CapabilityGrant, CapabilityTask } from '../capabilities/capability.js';
import type { McpServers } from '../roles/mcp-server-config.js';

export interface ServerGate {
  /** True where the folder's own executable configuration may run (a trusted folder). */
  workspaceTrusted(): boolean;
  /** Why no stdio server may start at all (no OS sandbox here); undefined where they may. */
  sandboxRefusal(): Promise<string | undefined>;
  /** How the user trusts the folder, said when its servers are held back (e.g. "run `agent-team trust`"). */
  howToTrust: string;
}

export function gatedServers(inner: Capability, gate: ServerGate): Capability {
  return {
    name: inner.name,
    ...(inner.close ? { close: () => inner.close!() } : {}),
    // A role without servers (most) gets the inner grant as it comes: no promise of our own (B1).
    grant(task) {
      const servers = task.agent.mcpServers ?? {};
      if (Object.keys(servers).length === 0) return inner.grant(task);
      return gatedGrant(inner, gate, servers, task);
    },
  };
}

/** The grant of a role with servers: the gate sorts them, the refused ones are said. */
async function gatedGrant(
  inner: Capability,
  gate: ServerGate,
  servers: McpServers,
  task: CapabilityTask,
): Promise<CapabilityGrant | undefined> {
  const { kept, refused } = await sortServers(servers, task, gate);
  if (refused.length === 0) return inner.grant(task);
  const granted = Object.keys(kept).length > 0 ? await inner.grant({ ...task, agent: { ...task.agent, mcpServers: kept } }) : undefined;
  return withRefusals(granted, refused);
}

async function sortServers(servers: McpServers, task: CapabilityTask, gate: ServerGate): Promise<{ kept: McpServers; refused: string[] }> {
  // A profile that does not say where its role came from is treated as the folder's: the safe side.
  if ((task.agent.origin ?? 'workspace') === 'workspace' && !gate.workspaceTrusted()) {
    const why = `role '${task.agent.role}' is defined by this folder, which is not trusted (${gate.howToTrust})`;
    return { kept: {}, refused: Object.keys(servers).map((name) => `MCP server '${name}' was not started: ${why}.`) };
  }
  const noSandbox = await gate.sandboxRefusal();
  if (noSandbox === undefined) return { kept: servers, refused: [] };
  const kept: Record<string, McpServers[string]> = {};
  const refused: string[] = [];
  for (const [name, server] of Object.entries(servers)) {
    if (server.type === 'stdio') refused.push(`MCP server '${name}' was not started: ${noSandbox}.`);
    else kept[name] = server;
  }
  return { kept, refused };
}

function withRefusals(granted: CapabilityGrant | undefined, refused: string[]): CapabilityGrant {
  const notices = [...(granted?.notices ?? []), ...refused];
  const earlier = granted?.instructions === undefined ? '' : `${granted.instructions}\n`;
  // The instructions the capability itself gives for servers that did not start, in the same shape.
  const instructions = earlier.includes('# Unavailable tools')
    ? `${earlier}${refused.join('\n')}`
    : `${earlier}# Unavailable tools\n${refused.join('\n')}`;
  return { ...granted, notices, instructions };
}
