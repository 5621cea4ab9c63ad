/**
 * A role's MCP servers, as a capability: they start with each of its tasks and stop when it ends. A server
 * that did not start is named in the task's transcript and in its agent's instructions, so the agent can
 * say what it could not do.
 */
import type { Capability } from '../capabilities/capability.js';
import { type McpHost, startRoleMcpServers } from './mcp-role-tools.js';

/** `host`: how servers start and whether they may. Without one, none starts (each role is told so). */
export function mcpCapability(host: McpHost | undefined): Capability {
  return {
    name: 'mcp',
    async grant(task) {
      const servers = task.agent.mcpServers ?? {};
      if (Object.keys(servers).length === 0) return undefined;
      const started = await startRoleMcpServers(servers, host, task.context.signal);
      return {
        tools: started.tools,
        notices: started.problems,
        ...(started.problems.length > 0 ? { instructions: `# Unavailable tools\n${started.problems.join('\n')}` } : {}),
        release: started.close,
      };
    },
  };
}
