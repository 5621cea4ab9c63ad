/**
 * A role's MCP servers, as a capability: they start with each of its tasks and stop when it ends. A server
 * that did not start, or runs without the network it asked for, is named in the task's transcript and in
 * its agent's instructions, so the agent can say what it could not do.
 */
import type { Capability, CapabilityGrant, CapabilityTask } from '../capabilities/capability.js';
import { type McpHost, startRoleMcpServers } from './mcp-role-tools.js';

/** `host`: how servers start and whether they may. Without one, none starts (each role is told so). */
export function mcpCapability(host: McpHost | undefined): Capability {
  return {
    name: 'mcp',
    // A role without servers (most) is answered at once, not with a promise (B1 in docs/performance.md).
    grant(task) {
      const servers = task.agent.mcpServers ?? {};
      if (Object.keys(servers).length === 0) return undefined;
      return serversGrant(servers, host, task);
    },
  };
}

async function serversGrant(
  servers: NonNullable<CapabilityTask['agent']['mcpServers']>,
  host: McpHost | undefined,
  task: CapabilityTask,
): Promise<CapabilityGrant> {
  // Sandboxed servers see the task's tree in a scratch copy, with the proposals the task sees as it starts.
  const started = await startRoleMcpServers(servers, host, {
    rootId: task.rootId,
    proposals: task.files.proposals,
    signal: task.context.signal,
  });
  const sections = [
    ...(started.problems.length > 0 ? [`# Unavailable tools\n${started.problems.join('\n')}`] : []),
    ...(started.notices.length > 0 ? [`# Limited tools\n${started.notices.join('\n')}`] : []),
  ];
  return {
    tools: started.tools,
    notices: [...started.problems, ...started.notices],
    ...(sections.length > 0 ? { instructions: sections.join('\n\n') } : {}),
    release: started.close,
  };
}
