// @vitest-environment jsdom
/**
 * The sidebar builds the schema it checks host messages with right after posting `ready`, while the host
 * makes the first snapshot, so the first snapshot's render (B4) builds none (zod calls
 * `globalConfig.postProcessor` for every schema it builds).
 */
import { describe, expect, it } from 'vitest';
import { makeTask, mountHarness, snapshotMessage } from './support/harness.js';

interface ZodGlobalConfig {
  postProcessor?: (schema: unknown) => void;
}

function countSchemasBuilt(action: () => void): number {
  const config = ((globalThis as { __zod_globalConfig?: ZodGlobalConfig }).__zod_globalConfig ??= {});
  let built = 0;
  config.postProcessor = () => void (built += 1);
  try {
    action();
  } finally {
    delete config.postProcessor;
  }
  return built;
}

describe('the sidebar and the first host message', () => {
  it('builds the host-message schema when it posts ready, and none when the first snapshot arrives', () => {
    let harness: ReturnType<typeof mountHarness> | undefined;
    const builtMounting = countSchemasBuilt(() => (harness = mountHarness()));
    expect(harness!.posted).toContainEqual({ type: 'ready' });
    expect(builtMounting).toBeGreaterThan(0);
    const builtOnFirstMessage = countSchemasBuilt(() => harness!.send(snapshotMessage([makeTask({ id: 't1' })])));
    expect(builtOnFirstMessage).toBe(0);
    expect(harness!.row('t1')).toBeTruthy();
  });
});
