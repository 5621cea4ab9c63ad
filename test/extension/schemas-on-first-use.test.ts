import { describe, expect, it, vi } from 'vitest';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

/**
 * Loading the extension's core builds (almost) no zod schema: each is built on its first use (B5 in
 * docs/performance.md). zod calls `globalConfig.postProcessor` for every schema it builds, so the test
 * counts them all, ours and those of the libraries the core bundles, while the modules load.
 */
interface ZodGlobalConfig {
  postProcessor?: (schema: unknown) => void;
}

/** What is still built at load: the settings' descriptors (read at start anyway), a few tools' inputs, small shared parts. */
const schemasBuiltAtLoadAtMost = 200;

async function schemasBuiltLoading(load: () => Promise<unknown>): Promise<number> {
  const config = ((globalThis as { __zod_globalConfig?: ZodGlobalConfig }).__zod_globalConfig ??= {});
  let built = 0;
  config.postProcessor = () => void (built += 1);
  try {
    await load();
  } finally {
    delete config.postProcessor;
  }
  return built;
}

describe('schemas are built on first use, not when the core loads', () => {
  it('loading the core and the sidebar protocol builds no defineVariants variant, no builtOnFirstUse schema and few others', async () => {
    const built = await schemasBuiltLoading(async () => {
      await import('../../src/extension/extension-core.js');
      await import('../../src/shared/protocol.js');
    });
    const { schemaVariantsBuilt } = await import('../../src/engine/util/schema-variants.js');
    const { valuesBuiltOnFirstUse } = await import('../../src/engine/util/built-on-first-use.js');
    expect(schemaVariantsBuilt()).toBe(0);
    expect(valuesBuiltOnFirstUse()).toBe(0);
    // Before this pass the core built about 2,000 as it loaded (800 of them the MCP SDK's, which the CLI alone needs).
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThanOrEqual(schemasBuiltAtLoadAtMost);
  });

  it('the first use builds a schema once, and later uses reuse it', async () => {
    const { taskSnapshotSchemas } = await import('../../src/engine/tasks/task-snapshot.js');
    const { schemaVariantsBuilt } = await import('../../src/engine/util/schema-variants.js');
    const { parseWebviewMessage } = await import('../../src/shared/protocol.js');
    const before = schemaVariantsBuilt();
    const strict = taskSnapshotSchemas.strict;
    expect(schemaVariantsBuilt()).toBeGreaterThan(before);
    const after = schemaVariantsBuilt();
    expect(taskSnapshotSchemas.strict).toBe(strict);
    expect(schemaVariantsBuilt()).toBe(after);
    const rebuilt = await schemasBuiltLoading(async () => {
      expect(parseWebviewMessage({ type: 'ready' }).message).toEqual({ type: 'ready' });
    });
    expect(rebuilt).toBeGreaterThan(0);
    expect(await schemasBuiltLoading(async () => parseWebviewMessage({ type: 'select-task', taskId: null }))).toBe(0);
    expect(parseWebviewMessage({ type: 'ready', apiKey: 'sk-secret' }).message).toBeUndefined();
  });
});
