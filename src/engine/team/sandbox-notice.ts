/**
 * Said at the start of every run, in its transcript (the sidebar, the CLI's trace and JSON), where there
 * is no OS sandbox: then nothing the repository defines runs — no hook, no MCP server that starts a
 * program, no command — unless the user turns the sandbox off; and where they did, that all of it runs
 * as them. Only for a run's root agent: its subagents share its machine. And the refusal itself, which
 * the hooks and the servers' gate give where there is no sandbox.
 */
import type { Capability, CapabilityGrant } from '../capabilities/capability.js';
import type { CommandHost } from '../commands/command-host.js';

export function sandboxNotice(commands: Pick<CommandHost, 'sandbox'>): Capability {
  return {
    name: 'sandbox-notice',
    // Subagents (most tasks) are answered at once, not with a promise (B1).
    grant: (task) => (task.agent.depth !== 0 ? undefined : rootNotice(commands)),
  };
}

/** What a run's root agent is told of the sandbox. */
async function rootNotice(commands: Pick<CommandHost, 'sandbox'>): Promise<CapabilityGrant | undefined> {
  const state = await commands.sandbox();
  if (state.mode === 'unavailable') {
    return {
      notices: [
        `No OS sandbox here (${state.reason}): no hook runs, no MCP server that starts a program starts, and commands are refused. Turning the sandbox off (agentTeam.sandbox "off", --no-sandbox) runs them as you.`,
      ],
    };
  }
  if (state.mode === 'off')
    return {
      notices: ['The OS sandbox is turned off: allowed commands, hooks and MCP servers run as you, with your files and your network.'],
    };
  return undefined;
}

/**
 * Why nothing the repository's folder holds may run (hooks, stdio MCP servers): there is no OS sandbox
 * here, so it would run as the user. Undefined where there is one, or where the user turned it off.
 */
export function sandboxRefusal(commands: Pick<CommandHost, 'sandbox'>): () => Promise<string | undefined> {
  return async () => {
    const state = await commands.sandbox();
    if (state.mode !== 'unavailable') return undefined;
    return `there is no OS sandbox here (${state.reason}), and it would run as you; turning the sandbox off (--no-sandbox, agentTeam.sandbox "off") lets it run unsandboxed`;
  };
}
