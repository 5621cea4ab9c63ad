import { AgentTeamError } from '../engine/index.js';

/** A mistake in the command line: exit 2, with the message and the usage. */
export class UsageError extends AgentTeamError {
  override readonly name: string = 'UsageError';
  readonly code = 'usage';
}
