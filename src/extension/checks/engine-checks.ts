/**
 * The engine's checks service, found on the engine the session built (src/engine/team/create-engine.ts).
 * An adapter while the engine side (branch wt-checks-engine) settles where it keeps the service: it takes
 * any object that has the `ProposalChecks` methods the extension uses, under `checks`.
 */
import type { ChecksService } from './run-checks.js';

export function checksServiceOf(engine: unknown): ChecksService | undefined {
  const candidate = (engine as { checks?: Partial<ChecksService> } | undefined)?.checks;
  if (typeof candidate?.runOnProposals !== 'function' || typeof candidate.rerun !== 'function' || typeof candidate.onVerdict !== 'function') return undefined;
  return candidate as ChecksService;
}
