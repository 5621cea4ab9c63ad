import { AgentTeamError } from '../errors.js';
import { redactSecrets } from '../secrets.js';

/**
 * How a remote agent failed a task: `unreachable` (no connection, a bad address, a refused token),
 * `timeout` (it stopped answering), `protocol` (it answered with something that is not A2A), `failed`
 * (it ran the task and reported failure), `blocked` (it wants input a subagent cannot give),
 * `not-allowed` (the host does not let role files send work away, or the token variable is unset).
 */
export type RemoteAgentErrorKind = 'unreachable' | 'timeout' | 'protocol' | 'failed' | 'blocked' | 'not-allowed';

/**
 * A remote role's task failed. The message names the role and the address so the user knows which file
 * to look at; it is redacted, since a server's error may echo the token the request carried.
 */
export class RemoteAgentError extends AgentTeamError {
  override readonly name: string = 'RemoteAgentError';
  readonly code: string;

  constructor(
    readonly kind: RemoteAgentErrorKind,
    message: string,
    secrets: readonly string[] = [],
  ) {
    super(redactSecrets(message, secrets));
    this.code = `a2a-${kind}`;
  }
}
