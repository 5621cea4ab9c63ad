/**
 * The team as an A2A agent over HTTP: the SDK's request handler around our executor, each task owned by
 * the client that created it, at most `maxActiveRuns` runs at once. Answers carry the run's diffs. A request
 * that has passed through too many agent-team servers is refused (a2a/hop-count.ts).
 */
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { serveAddress } from '../../a2a/served-addresses.js';
import { runAnswer } from '../run-report.js';
import { structuredAnswer } from '../structured-answer.js';
import type { ServedTeam } from '../served-team.js';
import { type A2aHttpServer, startA2aHttpServer } from './a2a-http-server.js';
import { OwnedRequestHandler } from './owned-request-handler.js';
import { TaskOwners } from './task-owners.js';
import { teamAgentCard } from './team-agent-card.js';
import { TeamAgentExecutor } from './team-agent-executor.js';
import type { ServedQuestions } from './served-questions.js';

export interface TeamA2aServerOptions {
  port: number;
  host: string;
  /** Bearer tokens, one per client; none: no authentication (loopback only). */
  tokens: readonly string[];
  version: string;
  onError(error: unknown): void;
  /** The engine's user channel: runs' questions become their tasks' `input-required` state. Default: none (no one is asked). */
  questions?: ServedQuestions;
}

export async function startTeamA2aServer(served: ServedTeam, options: TeamA2aServerOptions): Promise<A2aHttpServer> {
  const owners = new TaskOwners();
  const executor = new TeamAgentExecutor({
    team: served.team,
    owners,
    describeResult: (root) => runAnswer(served, root),
    structuredResult: (root) => structuredAnswer(served.roles, root),
    ...(options.questions ? { questions: options.questions } : {}),
  });
  const server = await startA2aHttpServer({
    port: options.port,
    host: options.host,
    tokens: options.tokens,
    handler: (url) =>
      new OwnedRequestHandler(
        new DefaultRequestHandler(
          teamAgentCard({ url, roster: served.team.roster(), version: options.version, bearer: options.tokens.length > 0 }),
          new InMemoryTaskStore(),
          executor,
        ),
        owners,
        executor,
      ),
    onError: options.onError,
  });
  // A remote role of this team pointing at this server is refused at once (served-addresses.ts).
  const unserve = serveAddress(server.url);
  return {
    url: server.url,
    close: async () => {
      unserve();
      await server.close();
    },
  };
}
