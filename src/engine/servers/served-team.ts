import type { RoleRegistry } from '../roles/role-registry.js';
import type { AgentTeam } from '../team/agent-team.js';
import type { ReportedRuns } from './run-report.js';

/** What a protocol server (MCP, A2A) serves: the team, its roles, and where its runs and proposals are. */
export interface ServedTeam extends ReportedRuns {
  team: AgentTeam;
  roles: RoleRegistry;
}

/** Runs a protocol server's clients may have at work at once; one more is refused in words, not queued. */
export const maxActiveRuns = 16;
