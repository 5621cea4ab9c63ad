/**
 * Commands, as a capability: roles that list `Bash` get it, running in a scratch copy of the task's tree
 * with the proposals the task sees applied, where `host` allows (src/engine/commands/command-host.ts).
 */
import type { Capability } from '../capabilities/capability.js';
import { createBashTool } from './bash-tool.js';
import type { CommandHost } from './command-host.js';

/** `dispose`: ends what the host holds (the scratch copies) when the engine closes. */
export function commandsCapability(host: CommandHost & { dispose?(): Promise<void> }): Capability {
  return {
    name: 'commands',
    grant: (task) => {
      if (!task.agent.tools.includes('Bash')) return undefined;
      // The first command is at least a model turn away: what it would wait for is found meanwhile (B9).
      void host.copies.warmUp?.();
      return {
        tools: [
          createBashTool({
            host,
            taskId: task.taskId,
            rootId: task.rootId,
            role: task.agent.role,
            proposals: task.files.proposals,
            waitForUser: (waitedFor) => task.context.waitForUser(waitedFor),
          }),
        ],
      };
    },
    ...(host.dispose ? { close: () => host.dispose?.() ?? Promise.resolve() } : {}),
  };
}
