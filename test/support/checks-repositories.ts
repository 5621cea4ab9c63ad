/**
 * Small real repositories for the checks' tests: a TypeScript one with vitest and tsc (the shared install's
 * node_modules linked in, as a user's would be; no network), and a Python one with pytest. Each is a git
 * repository with one commit, as a user's workspace is.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
/** The shared install's node_modules, found through vitest's own package. */
export const sharedNodeModules = path.resolve(path.dirname(require.resolve('vitest/package.json')), '..');

export const typescriptChecksYaml = `checks:
  - name: vitest
    command: node node_modules/vitest/vitest.mjs run test
    timeoutSeconds: 120
  - name: tsc
    command: node node_modules/typescript/bin/tsc --noEmit -p .
    timeoutSeconds: 120
`;

export const typescriptFiles: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'demo', private: true, type: 'module', scripts: { test: 'vitest run', typecheck: 'tsc --noEmit' } },
    null,
    2,
  ),
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: [] },
      include: ['src'],
    },
    null,
    2,
  ),
  '.gitignore': 'node_modules\n.vitest-cache\n',
  'src/math.ts':
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function half(a: number): number {\n  return a / 3;\n}\n',
  'test/math.test.ts':
    "import { describe, expect, it } from 'vitest';\nimport { add, half } from '../src/math.js';\n\ndescribe('math', () => {\n  it('adds', () => {\n    expect(add(2, 3)).toBe(5);\n  });\n  it('halves', () => {\n    expect(half(8)).toBe(4);\n  });\n});\n",
  '.agent-team/checks.yaml': typescriptChecksYaml,
};

export const pythonFiles: Record<string, string> = {
  'pyproject.toml':
    '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "-p no:cacheprovider"\n',
  'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef double(a):\n    return a * 3\n',
  'tests/test_calc.py':
    'from calc import add, double\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_double():\n    assert double(4) == 8\n',
  '.gitignore': '__pycache__\n',
};

/** Writes `files` into `root`, links node_modules when asked, and commits it all. */
export async function makeRepository(root: string, files: Record<string, string>, options: { nodeModules?: boolean } = {}): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  if (options.nodeModules) await symlink(sharedNodeModules, path.join(root, 'node_modules'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      },
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
}
