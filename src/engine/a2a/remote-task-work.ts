/**
 * A role with `a2a_url` as `TaskWork`: the prompt goes to the remote A2A agent through the official SDK's
 * client (protocol 1.0, or 0.3 through its compatibility layer, whichever the agent's card offers; JSON-RPC
 * or HTTP+JSON, streamed), its status lines go into the task's transcript, its answer streams as the task's
 * text and comes back as its output, reported usage is counted. Stop cancels the remote task; a remote
 * that does not confirm is said to be possibly still running. Silence longer than a timeout on the
 * engine's clock ends the task with a readable error. Every failure after the card was read names what
 * the card offered and what we tried.
 */
import type { TaskWork } from '../tasks/work.js';
import { RemoteAgentError } from './remote-agent-error.js';
import { RemoteExchange } from './remote-exchange.js';
import { displayAddress } from './remote-failure.js';
import type { A2aHost, RemoteRoleSpec } from './remote-host.js';
import { servedHere } from './served-addresses.js';

export type { A2aHost, RemoteRoleSpec } from './remote-host.js';

export function remoteTaskWork(host: A2aHost | undefined, spec: RemoteRoleSpec): TaskWork {
  return async (context) => {
    const address = displayAddress(spec.url);
    context.setModel(`a2a/${new URL(spec.url).host}`);
    if (!host || !host.allowed()) {
      const why = host
        ? 'this folder is not trusted (VS Code: Manage Workspace Trust; the CLI: agent-team trust, or --trust)'
        : 'this host does not run remote agents';
      throw new RemoteAgentError(
        'not-allowed',
        `Role '${spec.role}' runs on the remote agent at ${address}, which was not contacted: ${why}.`,
      );
    }
    if (servedHere(spec.url)) {
      throw new RemoteAgentError(
        'not-allowed',
        `Role '${spec.role}' runs on the remote agent at ${address}, which is this agent-team server itself: the request would come back here and start the role again. Point its 'a2a_url' at another agent.`,
      );
    }
    const token = spec.authEnv ? (host.environment ?? process.env)[spec.authEnv]?.trim() : undefined;
    if (spec.authEnv && !token) {
      throw new RemoteAgentError(
        'not-allowed',
        `Role '${spec.role}' needs the environment variable ${spec.authEnv} (its 'a2a_auth_env') to hold the token for ${address}, and it is not set.`,
      );
    }
    return new RemoteExchange(host, spec, context, token).run();
  };
}
