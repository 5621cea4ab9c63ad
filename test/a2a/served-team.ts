/**
 * `agent-team serve --a2a --port 0` started from a test (the real CLI bundle, its model on the mock provider
 * with the OpenAI SDK), stopped with SIGTERM after each test.
 */
import { afterEach, expect } from 'vitest';
import { type CliRun, providerEnvironment, startCli } from '../cli/cli-harness.js';
import type { CliWorld } from '../cli/cli-world.js';

export interface ServedTeam {
  /** Starts the server with `flags` (and `environment` added to the provider's); resolves with the address it prints. */
  serve(flags: string[], environment?: Record<string, string>): Promise<string>;
  /** Hands the running server to the test, which then stops it itself (to read what it prints on exit). */
  take(): CliRun;
}

/** `exitsCleanly`: each test also expects the server to exit with code 0 on SIGTERM. */
export function useServedTeam(world: CliWorld, { exitsCleanly = false } = {}): ServedTeam {
  let served: CliRun | undefined;
  afterEach(async () => {
    if (!served) return;
    served.child.kill('SIGTERM');
    const { code } = await served.exited;
    served = undefined;
    if (exitsCleanly) expect(code).toBe(0);
  });
  return {
    async serve(flags, environment = {}) {
      const provider = providerEnvironment('openai', world.server.baseUrl);
      const run = startCli(world.cliPath, ['serve', '--a2a', '--port', '0', ...flags, '--workspace', world.workspace, ...provider.args], {
        ...provider.env,
        ...environment,
      });
      served = run;
      let stderr = '';
      run.child.stderr?.on('data', (chunk: string | Buffer) => (stderr += String(chunk)));
      await run.waitForStderr('(agent card:');
      const url = /A2A agent at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr)?.[1];
      if (!url) throw new Error(`no address in: ${stderr}`);
      return url;
    },
    take() {
      if (!served) throw new Error('no server is running');
      const run = served;
      served = undefined;
      return run;
    },
  };
}
