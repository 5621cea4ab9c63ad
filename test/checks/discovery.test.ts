/**
 * Discovery: where each ecosystem keeps its checks, `.agent-team/checks.yaml` replacing it, and the files an
 * attacker would plant (a link out of the workspace, a FIFO, a huge file, a workflow step with an
 * expression) refused with the reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { discoverChecks, maxConfigurationBytes } from '../../src/engine/checks/discovery.js';

async function workspace(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-team-discovery-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  return root;
}

describe('discoverChecks', () => {
  it("finds package scripts with the lockfile's manager, Makefile targets, pytest, cargo and go", async () => {
    const root = await workspace({
      'package.json': JSON.stringify({ scripts: { test: 'vitest run', typecheck: 'tsc', build: 'tsc -b', dev: 'vite' } }),
      'yarn.lock': '',
      Makefile: 'VERSION := 1\ncheck: lint\n\tgo vet\nlint:\n\tgolint\n',
      'pytest.ini': '[pytest]\n',
      'Cargo.toml': '[package]\n',
      'go.mod': 'module x\n',
    });
    const found = await discoverChecks(root);
    expect(found.checks.map((check) => [check.name, check.command, check.source])).toEqual([
      ['yarn run test', 'yarn run test', 'package.json'],
      ['yarn run typecheck', 'yarn run typecheck', 'package.json'],
      ['yarn run build', 'yarn run build', 'package.json'],
      ['make check', 'make check', 'Makefile'],
      ['make lint', 'make lint', 'Makefile'],
      ['pytest', 'python3 -m pytest', 'pytest'],
      ['cargo test', 'cargo test', 'Cargo.toml'],
      ['go test', 'go test ./...', 'go.mod'],
    ]);
    expect(found.checks.every((check) => check.timeoutSeconds === 300)).toBe(true);
  });

  it('.agent-team/checks.yaml replaces discovery; an invalid one runs nothing and says why', async () => {
    const root = await workspace({
      'package.json': JSON.stringify({ scripts: { test: 'jest' } }),
      '.agent-team/checks.yaml': 'checks:\n  - name: unit\n    command: npm run unit\n    timeoutSeconds: 60\n    when: ["src/**"]\n',
    });
    expect(await discoverChecks(root)).toEqual({
      checks: [
        {
          name: 'unit',
          command: 'npm run unit',
          timeoutSeconds: 60,
          when: ['src/**'],
          source: '.agent-team/checks.yaml',
          sourceKind: 'checks-yaml',
        },
      ],
      skipped: [],
      fromChecksFile: true,
    });
    await writeFile(path.join(root, '.agent-team/checks.yaml'), 'checks:\n  - name: unit\n    command: npm run unit\n    shell: zsh\n');
    const invalid = await discoverChecks(root);
    expect(invalid.checks).toEqual([]);
    expect(invalid.skipped[0]?.reason).toMatch(/^checks\.0: Unrecognized key/);
  });

  it('refuses a link out of the workspace, a FIFO and a huge file, naming the rule', async () => {
    const outside = await workspace({ 'package.json': JSON.stringify({ scripts: { test: 'steal' } }) });
    const root = await workspace({ 'go.mod': 'x'.repeat(maxConfigurationBytes + 1) });
    await symlink(path.join(outside, 'package.json'), path.join(root, 'package.json'));
    execFileSync('mkfifo', [path.join(root, 'Makefile')]);
    const found = await discoverChecks(root);
    expect(found.checks).toEqual([]);
    expect(found.skipped.map((note) => note.source)).toEqual(['package.json', 'Makefile', 'go.mod']);
    expect(found.skipped[0].reason).toContain('leads outside the workspace');
    expect(found.skipped[1].reason).toContain('not a regular file');
    expect(found.skipped[2].reason).toContain(`larger than ${maxConfigurationBytes} bytes`);
  });

  it('takes plain workflow steps only', async () => {
    const root = await workspace({
      '.github/workflows/ci.yml': [
        'jobs:',
        '  build:',
        '    steps:',
        '      - run: npm ci',
        '      - run: npm test',
        '      - run: npm run lint -- --max-warnings ${{ env.MAX }}',
        '      - run: |',
        '          cd app',
        '          make',
        '      - run: pytest',
        '        working-directory: app',
        '',
      ].join('\n'),
    });
    const found = await discoverChecks(root);
    expect(found.checks.map((check) => check.command)).toEqual(['npm test']);
    expect(found.skipped.map((note) => note.reason)).toEqual([
      'step `npm run lint -- --max-warnings ${{ env.MAX }}` skipped: it uses an expression (${{ }}), whose value only CI knows',
      'step `cd app` skipped: it has several lines',
      'step `pytest` skipped: it sets working-directory, which a plain command would not',
    ]);
  });
});
