/**
 * The team's agent card: what `agent-team serve --a2a` says it is. It is a protocol 1.0 card whose one
 * endpoint (JSON-RPC at the server's root) is offered twice, at 1.0 and at 0.3, so both generations of
 * clients find an interface they speak (`duplicateInterfacesForLegacy`, the SDK's way to advertise 0.3).
 * Each role is a skill a message can ask for with `metadata.skill`; the coordinator, which plans and
 * delegates to them, answers a message that names none.
 */
import { AgentCard } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { RosterEntry } from '../../delegation/delegation-scope.js';
import { coordinatorName } from '../../roles/coordinator.js';

export interface TeamAgentCardOptions {
  /** The JSON-RPC endpoint, ending in `/`. */
  url: string;
  /** The roles, as the coordinator sees them. */
  roster: readonly RosterEntry[];
  /** The product's version. */
  version: string;
  /** True when calls need a bearer token (`--auth-token-env`): the card says so. Default false. */
  bearer?: boolean;
}

export function teamAgentCard(options: TeamAgentCardOptions): AgentCard {
  const coordinator = {
    id: coordinatorName,
    name: coordinatorName,
    description:
      'Plans the task and delegates its parts to the other skills (roles), then answers with their results. Used when a message names no skill.',
    tags: ['agent-team', 'coordinator'],
  };
  const roles = options.roster.map((role) => ({
    id: role.name,
    name: role.name,
    description: role.description,
    tags: ['agent-team', 'role'],
  }));
  const interfaces = duplicateInterfacesForLegacy(
    [{ url: options.url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    ['JSONRPC'],
  );
  // Built from the protocol's JSON form, so every field the SDK's types require is filled in the SDK's way.
  return AgentCard.fromJSON({
    name: 'agent-team',
    description:
      'Agent Team: a coordinator and its subagents working on one workspace. Proposed edits come back as unified diffs and are never applied. Ask for one role directly with message metadata {"skill": "<role>"}.',
    supportedInterfaces: interfaces,
    version: options.version,
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [coordinator, ...roles],
    ...(options.bearer
      ? {
          securitySchemes: {
            bearer: {
              httpAuthSecurityScheme: {
                scheme: 'bearer',
                description: 'The token the server was started with (agent-team serve --auth-token-env).',
              },
            },
          },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        }
      : {}),
  });
}
