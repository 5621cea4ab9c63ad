// The mock of the providers' wire protocols (test/support/mock-provider, TypeScript) for plain Node:
// bundled once per run with the repo's esbuild into a temporary ES module, then imported.
//
//   const mock = await loadMockProvider(scratchDir);
//   const server = await mock.startMockProviderServer();   // 127.0.0.1, port 0
//   server.respondWith((request) => mock.textTurn('Done.'));
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths.mjs';

/** Bundles test/support/mock-provider/index.ts into `outDir` and imports it. */
export async function loadMockProvider(outDir) {
  const esbuild = await import('esbuild');
  const outfile = join(outDir, 'mock-provider.mjs');
  await esbuild.build({
    entryPoints: [join(repoRoot, 'test', 'support', 'mock-provider', 'index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
  });
  return import(pathToFileURL(outfile).href);
}

/** Which agent sent a request, told by its system prompt (as test/cli/cli-harness.ts does). */
export function agentOf(request) {
  if (request.system.includes('You are the coordinator')) return 'coordinator';
  if (request.system.startsWith('You are the planner')) return 'planner';
  if (request.system.startsWith('You are the synthesizer')) return 'synthesizer';
  if (request.system.startsWith('You are a researcher')) return 'researcher';
  if (request.system.startsWith('You are a code reviewer')) return 'reviewer';
  if (request.system.startsWith('You are a refactorer')) return 'refactorer';
  return 'unknown';
}

/** How many model turns this agent has had before this request. */
export function priorTurns(request) {
  const messages = request.body?.messages ?? [];
  return messages.filter((message) => message.role === 'assistant').length;
}

/** A one-line description of a request, for failure messages and the artifacts. */
export function describeRequest(request) {
  return `#${request.index} ${agentOf(request)} turn ${priorTurns(request)}: ${request.lastMessageText.slice(0, 120).replace(/\s+/g, ' ')}`;
}
