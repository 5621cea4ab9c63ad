/**
 * The team's agent card (A2A 0.3): what `agent-team serve --a2a` says it is at
 * `/.well-known/agent-card.json`. Each role is a skill a message can ask for with `metadata.skill`; the
 * coordinator, which plans and delegates to them, answers a message that names none.
 */
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
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
  const coordinator: AgentSkill = {
    id: coordinatorName,
    name: coordinatorName,
    description: 'Plans the task and delegates its parts to the other skills (roles), then answers with their results. Used when a message names no skill.',
    tags: ['agent-team', 'coordinator'],
  };
  const roles = options.roster.map((role): AgentSkill => ({ id: role.name, name: role.name, description: role.description, tags: ['agent-team', 'role'] }));
  return {
    name: 'agent-team',
    description: 'Agent Team: a coordinator and its subagents working on one workspace. Proposed edits come back as unified diffs and are never applied. Ask for one role directly with message metadata {"skill": "<role>"}.',
    url: options.url,
    version: options.version,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [coordinator, ...roles],
    ...(options.bearer ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token the server was started with (agent-team serve --auth-token-env).' } }, security: [{ bearer: [] }] } : {}),
  };
}
