import { afterEach, describe, expect, it } from 'vitest';
import { toToolDefinition } from '../../src/engine/agent/tool.js';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { StoppedError } from '../../src/engine/errors.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { resolvePolicy } from '../../src/engine/workspace/policy.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import { runTool } from './run-tool.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const sample = 'line one\nline two\nline three\n';

async function setup(
  files: Record<string, string> = {},
  options: { grepMaxResults?: number; globMaxResults?: number; maxReadBytesPerCall?: number } = {},
) {
  const tree = await trees.create({ 'notes.txt': sample, 'src/app.ts': 'const greeting = "hello";\nconsole.log(greeting);\n', ...files });
  const policy = resolvePolicy(options.maxReadBytesPerCall ? { maxReadBytesPerCall: options.maxReadBytesPerCall } : {});
  const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null, policy });
  const changeSet = new ChangeSet({ taskId: 'task-1', role: 'coder', policy });
  const tools = createWorkspaceTools({ workspace, changeSet, policy, ...options });
  return { tree, changeSet, tools: [...tools.readOnly, ...tools.edit], readOnly: tools.readOnly, edit: tools.edit };
}

describe('tool set', () => {
  it('has the contract names, input fields and read-only flags', async () => {
    const { readOnly, edit } = await setup();
    expect(readOnly.map((tool) => [tool.name, tool.readOnly])).toEqual([
      ['Read', true],
      ['Glob', true],
      ['Grep', true],
    ]);
    expect(edit.map((tool) => [tool.name, tool.readOnly])).toEqual([
      ['Edit', false],
      ['Write', false],
    ]);
    const fields = Object.fromEntries(
      [...readOnly, ...edit].map((tool) => [
        tool.name,
        Object.keys((toToolDefinition(tool).inputSchema as { properties: object }).properties),
      ]),
    );
    expect(fields).toEqual({
      Read: ['file_path', 'offset', 'limit'],
      Glob: ['pattern', 'path'],
      Grep: ['pattern', 'path', 'glob'],
      Edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
      Write: ['file_path', 'content'],
    });
  });
});

describe('Read', () => {
  it('numbers lines like cat -n, from a 1-based offset, and says how to read on', async () => {
    const { tools, tree } = await setup();
    expect(await runTool(tools, 'Read', { file_path: 'notes.txt' })).toBe('     1\tline one\n     2\tline two\n     3\tline three');
    expect(await runTool(tools, 'Read', { file_path: tree.path('notes.txt'), offset: 2, limit: 1 })).toBe(
      '     2\tline two\n[Showing lines 2-2 of 3. Call Read with offset=3 to read on.]',
    );
  });

  it('reports empty files, offsets past the end and missing files', async () => {
    const { tools } = await setup({ 'empty.txt': '' });
    expect(await runTool(tools, 'Read', { file_path: 'empty.txt' })).toBe('(empty.txt is empty)');
    expect(await runTool(tools, 'Read', { file_path: 'notes.txt', offset: 9 })).toBe('(notes.txt has 3 lines; offset 9 is past the end.)');
    await expect(runTool(tools, 'Read', { file_path: 'missing.txt' })).rejects.toThrow('missing.txt does not exist.');
    await expect(runTool(tools, 'Read', { file_path: 'src' })).rejects.toThrow(/is a directory, not a file\. Use Glob/);
    expect(() => tools[0].inputSchema.parse({ file_path: 'notes.txt', offset: 0 })).toThrow();
  });

  it('caps the bytes of one call and says where to continue', async () => {
    const long = Array.from({ length: 100 }, (_, index) => `row ${index + 1} ${'x'.repeat(40)}`).join('\n');
    const { tools } = await setup({ 'long.txt': long }, { maxReadBytesPerCall: 1024 });
    const output = await runTool(tools, 'Read', { file_path: 'long.txt' });
    const shown = output.split('\n').filter((line) => /^\s+\d+\t/.test(line));
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(100);
    expect(output).toMatch(
      new RegExp(
        `\\[Output stopped at 1 KB after line ${shown.length} of 100\\. Call Read with offset=${shown.length + 1} to read on\\.\\]$`,
      ),
    );
  });

  it('cuts very long lines and says so', async () => {
    const { tools } = await setup({ 'min.js': `${'a'.repeat(2500)}\nshort\n` });
    const output = await runTool(tools, 'Read', { file_path: 'min.js' });
    expect(output.split('\n')[0]).toBe(`     1\t${'a'.repeat(2000)}… [line cut at 2000 characters]`);
    expect(output).toContain('[1 long line was cut; use Grep to find text in them.]');
  });
});

describe('Glob', () => {
  it('lists sorted workspace-relative paths, caps them with a note, and says when nothing matches', async () => {
    const { tools } = await setup({ 'src/b.ts': '', 'src/a/z.ts': '', 'lib/c.ts': '' }, { globMaxResults: 3 });
    expect(await runTool(tools, 'Glob', { pattern: '*.ts', path: 'src' })).toBe('src/app.ts\nsrc/b.ts');
    expect(await runTool(tools, 'Glob', { pattern: '**/*.ts' })).toBe(
      'lib/c.ts\nsrc/a/z.ts\nsrc/app.ts\n[Showing the first 3 files; more match. Narrow the pattern or the path.]',
    );
    expect(await runTool(tools, 'Glob', { pattern: '**/*.rs' })).toBe('No files match "**/*.rs".');
    await expect(runTool(tools, 'Glob', { pattern: '../**' })).rejects.toThrow(/uses ".."/);
  });
});

describe('Grep', () => {
  it('prints path:line: text, sorted, capped with a note', async () => {
    const { tools } = await setup({ 'src/z.ts': 'greeting again\n' }, { grepMaxResults: 2 });
    expect(await runTool(tools, 'Grep', { pattern: 'greeting' })).toBe(
      'src/app.ts:1: const greeting = "hello";\nsrc/app.ts:2: console.log(greeting);\n' +
        '[Showing the first 2 matching lines; there are more. Narrow the pattern, the path or the glob.]',
    );
    expect(await runTool(tools, 'Grep', { pattern: 'line t', path: 'notes.txt' })).toBe('notes.txt:2: line two\nnotes.txt:3: line three');
    expect(await runTool(tools, 'Grep', { pattern: 'again', glob: '*.ts' })).toBe('src/z.ts:1: greeting again');
    expect(await runTool(tools, 'Grep', { pattern: 'nothing here' })).toBe('No matches for "nothing here".');
  });

  it('turns an invalid regex into a clear error', async () => {
    const { tools } = await setup();
    await expect(runTool(tools, 'Grep', { pattern: '[unclosed' })).rejects.toThrow(/^Invalid regular expression "\[unclosed"/);
  });
});

describe('Edit', () => {
  it('replaces a unique exact string as a proposal: the task sees it, the disk does not', async () => {
    const { tools, tree, changeSet } = await setup();
    const output = await runTool(tools, 'Edit', { file_path: 'src/app.ts', old_string: '"hello"', new_string: '"hi"' });
    expect(output).toMatch(/^Replaced 1 occurrence in src\/app\.ts\. This edit: \+1 −1 lines.*not written to disk/);
    expect(await tree.read('src/app.ts')).toBe('const greeting = "hello";\nconsole.log(greeting);\n');
    expect(await runTool(tools, 'Read', { file_path: 'src/app.ts', limit: 1 })).toContain('const greeting = "hi";');
    expect(await runTool(tools, 'Grep', { pattern: '"h' })).toBe('src/app.ts:1: const greeting = "hi";');
    expect(changeSet.proposedContent('src/app.ts')).toBe('const greeting = "hi";\nconsole.log(greeting);\n');
    expect(changeSet.file('src/app.ts')?.baseContent).toBe('const greeting = "hello";\nconsole.log(greeting);\n');
  });

  it('refuses ambiguous, missing, no-op and empty old_string edits, saying how many matches it found', async () => {
    const { tools, changeSet } = await setup();
    await expect(runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'line', new_string: 'row' })).rejects.toThrow(
      'old_string occurs 3 times in notes.txt. Include more surrounding lines to make it unique, or set replace_all to true to replace all 3.',
    );
    await expect(runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'line four', new_string: 'x' })).rejects.toThrow(
      /old_string was not found in notes\.txt\. It must match exactly/,
    );
    await expect(runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'one', new_string: 'one' })).rejects.toThrow(/are the same/);
    await expect(runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: '', new_string: 'x' })).rejects.toThrow(/use Write/);
    await expect(runTool(tools, 'Edit', { file_path: 'nope.txt', old_string: 'a', new_string: 'b' })).rejects.toThrow(
      'nope.txt does not exist. Use Write to create a new file.',
    );
    expect(changeSet.paths()).toEqual([]);
  });

  it('replaces every occurrence with replace_all, keeping $ patterns literal', async () => {
    const { tools, changeSet } = await setup();
    expect(await runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'line', new_string: '$&-row', replace_all: true })).toMatch(
      /^Replaced 3 occurrences/,
    );
    expect(changeSet.proposedContent('notes.txt')).toBe('$&-row one\n$&-row two\n$&-row three\n');
  });

  it('matches \\n in old_string against a CRLF file and keeps CRLF', async () => {
    const { tools, changeSet } = await setup({ 'win.txt': 'first\r\nsecond\r\nthird\r\n' });
    await runTool(tools, 'Edit', { file_path: 'win.txt', old_string: 'first\nsecond', new_string: 'one\ntwo' });
    expect(changeSet.proposedContent('win.txt')).toBe('one\r\ntwo\r\nthird\r\n');
  });

  it('runs parallel edits to one file one after another, losing neither', async () => {
    const { tools, changeSet } = await setup();
    await Promise.all([
      runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'one', new_string: '1' }),
      runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'three', new_string: '3' }),
    ]);
    expect(changeSet.proposedContent('notes.txt')).toBe('line 1\nline two\nline 3\n');
  });

  it('withdraws the proposal when an edit restores the original', async () => {
    const { tools, changeSet } = await setup();
    await runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'one', new_string: '1' });
    const output = await runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: '1', new_string: 'one' });
    expect(output).toMatch(/back to its original content/);
    expect(changeSet.paths()).toEqual([]);
  });
});

describe('Write', () => {
  it('proposes new files and rewrites, which the task lists, reads and greps but the disk never sees', async () => {
    const { tools, tree, changeSet } = await setup();
    expect(await runTool(tools, 'Write', { file_path: 'docs/guide.md', content: '# Guide\nhello\n' })).toMatch(
      /^Created docs\/guide\.md \(2 lines\)/,
    );
    expect(await runTool(tools, 'Write', { file_path: 'notes.txt', content: 'replaced\n' })).toMatch(
      /^Rewrote notes\.txt \(1 line\)\. This edit: \+1 −3/,
    );
    expect(await runTool(tools, 'Glob', { pattern: '**/*.md' })).toBe('docs/guide.md');
    expect(await runTool(tools, 'Glob', { pattern: '*', path: 'docs' })).toBe('docs/guide.md');
    expect(await runTool(tools, 'Read', { file_path: 'docs/guide.md' })).toBe('     1\t# Guide\n     2\thello');
    expect(await runTool(tools, 'Grep', { pattern: 'hello|replaced' })).toBe(
      'docs/guide.md:2: hello\nnotes.txt:1: replaced\nsrc/app.ts:1: const greeting = "hello";',
    );
    expect(await runTool(tools, 'Grep', { pattern: 'line' })).toBe('No matches for "line".');
    await expect(tree.read('docs/guide.md')).rejects.toThrow();
    expect(await tree.read('notes.txt')).toBe(sample);
    expect(changeSet.paths()).toEqual(['docs/guide.md', 'notes.txt']);
  });

  it('marks sensitive configuration as needing approval, and says so', async () => {
    const { tools, changeSet } = await setup();
    expect(await runTool(tools, 'Write', { file_path: '.vscode/settings.json', content: '{}\n' })).toMatch(/must approve it explicitly/);
    expect(changeSet.file('.vscode/settings.json')?.requiresApproval).toBe(true);
    await runTool(tools, 'Write', { file_path: 'src/new.ts', content: 'x\n' });
    expect(changeSet.file('src/new.ts')?.requiresApproval).toBe(false);
  });
});

describe("one task's view", () => {
  it('is not seen by another task on the same workspace', async () => {
    const { tree, tools } = await setup();
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const other = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 'task-2', role: 'reviewer' }) });
    await runTool(tools, 'Edit', { file_path: 'notes.txt', old_string: 'one', new_string: 'ONE' });
    await runTool(tools, 'Write', { file_path: 'mine.txt', content: 'mine\n' });
    expect(await runTool(other.readOnly, 'Read', { file_path: 'notes.txt', limit: 1 })).toBe(
      '     1\tline one\n[Showing lines 1-1 of 3. Call Read with offset=2 to read on.]',
    );
    expect(await runTool(other.readOnly, 'Glob', { pattern: 'mine.txt' })).toBe('No files match "mine.txt".');
    expect(await runTool(other.readOnly, 'Grep', { pattern: 'ONE|mine' })).toBe('No matches for "ONE|mine".');
  });

  it('replaces disk matches of files it changed, asking the disk for more when they were cut', async () => {
    const { tools } = await setup({ 'a.txt': 'hit 1\nhit 2\nhit 3\n', 'b.txt': 'hit 4\nhit 5\n' }, { grepMaxResults: 2 });
    await runTool(tools, 'Write', { file_path: 'a.txt', content: 'no longer\n' });
    expect(await runTool(tools, 'Grep', { pattern: 'hit' })).toBe('b.txt:1: hit 4\nb.txt:2: hit 5');
  });

  it('stops searching and listing when the signal is already aborted', async () => {
    const { readOnly } = await setup();
    const controller = new AbortController();
    controller.abort({ kind: 'user' });
    await expect(runTool(readOnly, 'Grep', { pattern: 'line' }, controller.signal)).rejects.toBeInstanceOf(StoppedError);
    await expect(runTool(readOnly, 'Glob', { pattern: '**' }, controller.signal)).rejects.toBeInstanceOf(StoppedError);
  });
});
