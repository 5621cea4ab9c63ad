/**
 * What every CLI end-to-end test needs: the CLI built once per file, and per test a mock provider server
 * and a workspace holding `files`, all removed afterwards.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type MockProviderServer, startMockProviderServer } from '../support/mock-provider/index.js';
import { buildCli } from './cli-harness.js';

export interface CliWorld {
  readonly cliPath: string;
  readonly server: MockProviderServer;
  readonly workspace: string;
}

export function useCliWorld(files: Record<string, string>): CliWorld {
  let cli: Awaited<ReturnType<typeof buildCli>>;
  let server: MockProviderServer;
  let workspace: string;
  beforeAll(async () => {
    cli = await buildCli();
  });
  afterAll(async () => {
    await cli.dispose();
  });
  beforeEach(async () => {
    server = await startMockProviderServer();
    workspace = await mkdtemp(path.join(tmpdir(), 'agent-team-ws-'));
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(workspace, name), content);
  });
  afterEach(async () => {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  });
  return {
    get cliPath() {
      return cli.cliPath;
    },
    get server() {
      return server;
    },
    get workspace() {
      return workspace;
    },
  };
}
