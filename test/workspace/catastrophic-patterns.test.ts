/**
 * Patterns that make a backtracking engine run for hours (`(a+)+$`, `*a*a*…*b`) finish on every path a
 * model can reach: Grep on the JavaScript engine, Grep over a pending proposal, Grep's glob filter, Glob
 * on disk and over created files. The assertions are on results; a regression shows as a test that never
 * ends (vitest's timeout), not as a slow one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { WorkspaceError } from '../../src/engine/errors.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { findRipgrepOnPath } from '../../src/engine/workspace/search/find-ripgrep.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import { runTool } from './run-tool.js';
import { createTempTree, type TempTree } from './temp-tree.js';

/** 250 characters: near the longest name most file systems allow. */
const longName = 'a'.repeat(250);
const catastrophicGlob = '*a*a*a*a*a*a*a*a*a*a*a*a*b';
const catastrophicRegex = '(a+)+$';
const manyAs = `${'a'.repeat(50_000)}!\n`;

const ripgrepPath = await findRipgrepOnPath();
let tree: TempTree;
beforeAll(async () => {
  tree = await createTempTree({
    [longName]: 'x\n',
    [`dir/${longName}b`]: 'x\n',
    'as.txt': manyAs,
    'ends.txt': 'aaaa\nbbb!\n',
  });
});
afterAll(() => tree.cleanup());

function tools(ripgrep: string | null) {
  const workspace = new NodeWorkspace(tree.root, { ripgrepPath: ripgrep });
  return createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 'task-1', role: 'researcher' }) });
}

describe('Grep with a catastrophic regex', () => {
  it('finishes on the JavaScript engine with the right lines', async () => {
    const { readOnly } = tools(null);
    expect(await runTool(readOnly, 'Grep', { pattern: catastrophicRegex })).toBe('ends.txt:1: aaaa');
  });

  it.skipIf(ripgrepPath === null)('gives the same result through ripgrep', async () => {
    const { readOnly } = tools(ripgrepPath);
    expect(await runTool(readOnly, 'Grep', { pattern: catastrophicRegex })).toBe('ends.txt:1: aaaa');
  });

  it('finishes over a pending proposal, which is searched in JavaScript whatever the engine', async () => {
    const { readOnly, edit } = tools(ripgrepPath);
    await runTool(edit, 'Write', { file_path: 'proposed.txt', content: `${manyAs}tail aaa\n` });
    await runTool(edit, 'Write', { file_path: 'ends.txt', content: `${'a'.repeat(30_000)}!\n` });
    expect(await runTool(readOnly, 'Grep', { pattern: catastrophicRegex })).toBe('proposed.txt:2: tail aaa');
  });

  it('refuses what RE2 (and ripgrep) cannot do, naming the construct', async () => {
    const engines = ripgrepPath === null ? [null] : [null, ripgrepPath];
    for (const engine of engines) {
      const { readOnly } = tools(engine);
      await expect(runTool(readOnly, 'Grep', { pattern: '(?=a)a' })).rejects.toThrow(
        /^Invalid regular expression "\(\?=a\)a": look-around, including look-ahead and look-behind, is not supported\./,
      );
      await expect(runTool(readOnly, 'Grep', { pattern: '(a)\\1' })).rejects.toThrow(
        /^Invalid regular expression "\(a\)\\\\1": backreferences are not supported\./,
      );
    }
  });
});

describe('Grep with an over-long pattern', () => {
  it('is refused before any engine compiles it, with the limit named', async () => {
    for (const engine of ripgrepPath === null ? [null] : [null, ripgrepPath]) {
      const { readOnly } = tools(engine);
      await expect(runTool(readOnly, 'Grep', { pattern: 'a'.repeat(4097) })).rejects.toThrow(
        'The regular expression is 4097 characters long, over the limit of 4096. Search for a shorter, distinctive part.',
      );
    }
  });
});

describe('Glob with a catastrophic pattern', () => {
  it('finishes against a long file name on disk, with the right paths', async () => {
    const { readOnly } = tools(null);
    expect(await runTool(readOnly, 'Glob', { pattern: catastrophicGlob })).toBe(`No files match "${catastrophicGlob}".`);
    expect(await runTool(readOnly, 'Glob', { pattern: `**/${catastrophicGlob}` })).toBe(`dir/${longName}b`);
  });

  it('finishes against a long name that exists only as a proposal', async () => {
    const { readOnly, edit } = tools(null);
    await runTool(edit, 'Write', { file_path: `new/${longName}b`, content: 'x\n' });
    await runTool(edit, 'Write', { file_path: `new/${longName}`, content: 'x\n' });
    expect(await runTool(readOnly, 'Glob', { pattern: catastrophicGlob, path: 'new' })).toBe(`new/${longName}b`);
  });

  it("finishes as Grep's glob filter, on both engines", async () => {
    for (const engine of ripgrepPath === null ? [null] : [null, ripgrepPath]) {
      const { readOnly } = tools(engine);
      expect(await runTool(readOnly, 'Grep', { pattern: 'x', glob: `dir/${catastrophicGlob}` })).toBe(`dir/${longName}b:1: x`);
      expect(await runTool(readOnly, 'Grep', { pattern: 'x', glob: catastrophicGlob })).toBe(`dir/${longName}b:1: x`);
    }
  });

  it('refuses an over-long Grep glob filter alike on both engines', async () => {
    for (const engine of ripgrepPath === null ? [null] : [null, ripgrepPath]) {
      const { readOnly } = tools(engine);
      await expect(runTool(readOnly, 'Grep', { pattern: 'x', glob: `${'*a'.repeat(600)}b` })).rejects.toThrow(
        'The glob is 1201 characters long, over the limit of 1024.',
      );
    }
  });

  it('refuses an over-long pattern with a clear error result', async () => {
    const { readOnly } = tools(null);
    const error = await runTool(readOnly, 'Glob', { pattern: `${'*a'.repeat(600)}b` }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as Error).message).toBe(
      'The glob is 1201 characters long, over the limit of 1024. Use a shorter pattern, or several calls.',
    );
  });
});
