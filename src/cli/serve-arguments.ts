/** `agent-team serve --a2a`: the team as an A2A agent; where it listens and who may use it. */
import type { ServeArguments } from './argument-types.js';
import { commandFlags } from './command-flags.js';
import type { ParsedOptions } from './history-arguments.js';
import { checkedModelOptions } from './model-options.js';
import { wholeNumber } from './number-options.js';
import { UsageError } from './usage-error.js';

/** Serve's own options; the capabilities' options and the model's are taken as well. */
export const serveValueOptions = ['--port', '--host', '--auth-token-env'];
export const serveFlags = ['--a2a', '--no-auth'];

export function serveArguments(parsed: ParsedOptions): ServeArguments {
  const { values, flags } = parsed;
  if (!flags.has('--a2a')) throw new UsageError('"serve" needs the protocol to serve: agent-team serve --a2a --port <n>');
  if (!values.has('--port')) throw new UsageError('"serve --a2a" needs --port <n> (0: any free port)');
  const port = wholeNumber(values, '--port', 0, 0, 65_535);
  const host = values.get('--host') ?? '127.0.0.1';
  const authTokenEnv = values.get('--auth-token-env');
  if (authTokenEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(authTokenEnv))
    throw new UsageError(`--auth-token-env names an environment variable, not "${authTokenEnv}"`);
  if (!isLoopback(host) && authTokenEnv === undefined)
    throw new UsageError(
      `--host ${host} would let other machines reach the team: it needs --auth-token-env <NAME>, the variable holding the token clients must send`,
    );
  const noAuth = flags.has('--no-auth');
  if (noAuth && authTokenEnv !== undefined) throw new UsageError('--no-auth and --auth-token-env cannot be used together: give one');
  // Every program on this machine (another user's, a page's helper) reaches loopback: no token is a choice said out loud.
  if (!noAuth && authTokenEnv === undefined)
    throw new UsageError(
      '"serve --a2a" needs --auth-token-env <NAME> (the variable holding the token clients must send) or --no-auth (any program on this machine may use the team)',
    );
  return {
    command: 'serve',
    protocol: 'a2a',
    port,
    host,
    ...(authTokenEnv ? { authTokenEnv } : {}),
    noAuth,
    workspace: parsed.workspace,
    ...checkedModelOptions(values),
    ...commandFlags(parsed),
  };
}

/**
 * The loopback addresses the server answers on without a token: exactly the names its Host check accepts
 * (a2a-http-server.ts), so a browser page cannot reach it through a rebound name.
 */
function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}
