/** Reading web pages, as a capability: roles that list `WebFetch` get it, under the host's rules for sites. */
import type { Capability } from '../capabilities/capability.js';
import { createWebFetchTool } from './web-fetch-tool.js';
import type { WebHost } from './web-host.js';

export function webCapability(host: WebHost): Capability {
  return {
    name: 'web',
    grant: (task) =>
      task.agent.tools.includes('WebFetch')
        ? {
            tools: [
              createWebFetchTool({
                host,
                taskId: task.taskId,
                role: task.agent.role,
                waitForUser: (waitedFor) => task.context.waitForUser(waitedFor),
              }),
            ],
          }
        : undefined,
  };
}
