/**
 * `agent-team serve --a2a --port <n>`: the team as an A2A agent (protocol 1.0 and 0.3, JSON-RPC) on 127.0.0.1
 * (or `--host`), for other agents (kagent's, an ADK agent, another team) to hand
 * it work. Each message is a run of the coordinator, or of the role its `metadata.skill` names;
 * `tasks/cancel` stops it. Each task belongs to the client that created it; a working task takes no
 * second message; at most 16 runs at once. Proposed edits come back as unified diffs and are never
 * applied, as with `agent-team mcp`. Serves until stopped. Clients send a token (`--auth-token-env`) unless
 * the user said `--no-auth` (loopback only): every program on this machine reaches 127.0.0.1.
 */
import { ConfigurationError, errorMessage, ServedQuestions, startTeamA2aServer } from '../engine/index.js';
import type { ServeArguments } from './arguments.js';
import { createCliEngine } from './cli-engine.js';
import { exitCodes } from './exit-codes.js';

declare const AGENT_TEAM_VERSION: string | undefined;

export interface ServeContext {
  stderr: { write(text: string): void };
  environment: NodeJS.ProcessEnv;
  /** Ends serving; its reason, when a number, is the exit code (130 for Ctrl-C). */
  stop: AbortSignal;
  /** Told the address once it listens (tests connect to it). Default: only printed. */
  onListening?(url: string): void;
}

/** Resolves when `stop` aborts, after every run still going has been stopped and the port closed. */
export async function serveCommand(args: ServeArguments, context: ServeContext): Promise<number> {
  // The parser requires one of the two; a caller that built the arguments itself is held to it too.
  if (args.authTokenEnv === undefined && !args.noAuth)
    throw new ConfigurationError(
      '"serve --a2a" needs --auth-token-env <NAME> (the variable holding the token clients must send) or --no-auth (any program on this machine may use the team)',
    );
  const tokens = args.authTokenEnv === undefined ? [] : bearerTokens(args.authTokenEnv, context.environment);
  let questions: ServedQuestions | undefined;
  const engine = await createCliEngine({
    ...args,
    secrets: tokens,
    // A run's questions (its plan, with --approve-plan) go to its client as the task's input-required state.
    userChannel: (taskManager) => (questions = new ServedQuestions((taskId) => taskManager.get(taskId)?.rootId)),
    planAnswerHowTo: 'the client answers a task in input-required state with a message on that task',
    environment: context.environment,
    stderr: context.stderr,
  });
  const version = typeof AGENT_TEAM_VERSION === 'string' ? AGENT_TEAM_VERSION : 'dev';
  let server;
  try {
    server = await startTeamA2aServer(engine, {
      port: args.port,
      host: args.host,
      tokens,
      version,
      ...(questions ? { questions } : {}),
      onError: (error) => context.stderr.write(`agent-team: an A2A stream failed: ${errorMessage(error)}\n`),
    });
  } catch (error) {
    await engine.close();
    throw new Error(`could not serve on ${args.host}:${args.port}: ${errorMessage(error)}`);
  }
  const auth =
    tokens.length > 0
      ? `; clients send the token of ${args.authTokenEnv} as a bearer token (${tokens.length} client${tokens.length === 1 ? '' : 's'})`
      : '; no token (--no-auth): any program on this machine may use it';
  context.stderr.write(
    `agent-team: serving the team as an A2A agent at ${server.url} (agent card: ${server.url}.well-known/agent-card.json)${auth}; Ctrl-C stops it\n`,
  );
  context.onListening?.(server.url);
  await new Promise<void>((resolve) => {
    if (context.stop.aborted) resolve();
    else context.stop.addEventListener('abort', () => resolve(), { once: true });
  });
  // Runs first, so their clients hear `canceled` before the connections close.
  await engine.taskManager.stopAll({ kind: 'shutdown' });
  await server.close();
  await engine.close();
  const reason: unknown = context.stop.reason;
  return typeof reason === 'number' ? reason : exitCodes.completed;
}

/** The tokens the variable holds (comma-separated, one per client); none is a configuration error. */
function bearerTokens(name: string, environment: NodeJS.ProcessEnv): string[] {
  const tokens = (environment[name] ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
  if (tokens.length === 0)
    throw new ConfigurationError(
      `--auth-token-env ${name}: the variable ${name} is not set or empty; set it to the token clients must send`,
    );
  const short = tokens.find((token) => token.length < 16);
  if (short !== undefined)
    throw new ConfigurationError(
      `--auth-token-env ${name}: a token of ${short.length} characters is too easy to guess; use at least 16 (e.g. openssl rand -hex 32)`,
    );
  return tokens;
}
