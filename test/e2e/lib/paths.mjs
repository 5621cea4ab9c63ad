// Where things are, relative to this file (so a scratch copy of the repo tests itself).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const repoRoot = resolve(here, '..', '..', '..');
/** test/e2e */
export const e2eDir = resolve(here, '..');
/** The small project the journeys (and `npm start`) open. */
export const fixtureWorkspace = join(e2eDir, 'fixtures', 'workspace');
/** Failure artifacts: test-results/e2e/<journey>/. */
export const resultsDir = join(repoRoot, 'test-results', 'e2e');
/** What `npm run package` writes. */
export const vsixPath = join(repoRoot, 'dist', 'agent-team.vsix');
