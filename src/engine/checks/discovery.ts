/**
 * Finds the workspace's own checks where each ecosystem keeps them, or takes `.agent-team/checks.yaml`,
 * which replaces discovery. Every file is read through the one confined reader (a link leading outside
 * the workspace or to a secret is refused, a FIFO is not waited on, a huge file is cut and refused).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfinedFileReader } from '../workspace/confined-file-reader.js';
import { checksFilePath, parseChecksFile } from './checks-file.js';
import { lockfiles, makefileChecks, packageScriptChecks } from './package-checks.js';
import { type CheckDefinition, type CheckDiscovery, type CheckDiscoveryNote, defaultCheckTimeoutSeconds } from './types.js';
import { workflowChecks } from './workflow-checks.js';

/** A configuration file larger than this is not read (it is refused, with the reason). */
export const maxConfigurationBytes = 256 * 1024;
const workflowsFolder = '.github/workflows';
const maxWorkflowFiles = 20;

export async function discoverChecks(root: string): Promise<CheckDiscovery> {
  const reader = new ConfinedFileReader(root);
  const notes: CheckDiscoveryNote[] = [];
  const read = async (relative: string): Promise<string | undefined> => {
    const outcome = await reader.read(relative, maxConfigurationBytes);
    if (outcome === undefined) return undefined;
    if ('refused' in outcome) return void notes.push({ source: relative, reason: `not read: ${outcome.refused}` });
    if (outcome.read.cut) return void notes.push({ source: relative, reason: `not read: larger than ${maxConfigurationBytes} bytes` });
    return outcome.read.text;
  };

  const own = await read(checksFilePath);
  if (own !== undefined) {
    const parsed = parseChecksFile(own);
    if ('note' in parsed) return { checks: [], skipped: [...notes, parsed.note], fromChecksFile: true };
    return { checks: parsed.checks, skipped: notes, fromChecksFile: true };
  }

  const checks: CheckDefinition[] = [];
  const manifest = await read('package.json');
  if (manifest !== undefined) {
    const manager = await packageManager(reader);
    const found = packageScriptChecks(manifest, manager);
    checks.push(...found.checks);
    notes.push(...found.notes);
  }
  const makefile = await read('Makefile');
  if (makefile !== undefined) checks.push(...makefileChecks(makefile));
  if (await usesPytest(read)) checks.push({ name: 'pytest', command: 'python3 -m pytest', source: 'pytest', sourceKind: 'pytest' });
  if ((await read('Cargo.toml')) !== undefined)
    checks.push({ name: 'cargo test', command: 'cargo test', source: 'Cargo.toml', sourceKind: 'cargo' });
  if ((await read('go.mod')) !== undefined) checks.push({ name: 'go test', command: 'go test ./...', source: 'go.mod', sourceKind: 'go' });
  for (const file of await workflowFiles(root)) {
    const text = await read(file);
    if (text === undefined) continue;
    const found = workflowChecks(file, text);
    notes.push(...found.notes);
    // A workflow step that repeats a check found already is the same check.
    for (const check of found.checks) if (!checks.some((known) => known.command === check.command)) checks.push(check);
  }
  return {
    checks: uniqueNames(checks).map((check) => ({ timeoutSeconds: defaultCheckTimeoutSeconds, ...check })),
    skipped: notes,
    fromChecksFile: false,
  };
}

async function packageManager(reader: ConfinedFileReader): Promise<string> {
  for (const { file, manager } of lockfiles) {
    // Only whether it is there: a lockfile's content is not needed (a link elsewhere is not followed).
    if ((await reader.read(file, 1)) !== undefined) return manager;
  }
  return 'npm';
}

async function usesPytest(read: (relative: string) => Promise<string | undefined>): Promise<boolean> {
  if ((await read('pytest.ini')) !== undefined) return true;
  const tox = await read('tox.ini');
  if (tox !== undefined && /^\[(pytest|tool:pytest)\]/m.test(tox)) return true;
  const pyproject = await read('pyproject.toml');
  return pyproject !== undefined && /^\[tool\.pytest|\bpytest\b/m.test(pyproject);
}

/** The workflow files, when `.github/workflows` is a real folder of the workspace (not a link out of it). */
async function workflowFiles(root: string): Promise<string[]> {
  const folder = join(root, workflowsFolder);
  const info = await lstat(folder).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  const names = await readdir(folder).catch(() => [] as string[]);
  return names
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .slice(0, maxWorkflowFiles)
    .map((name) => `${workflowsFolder}/${name}`);
}

/** Two checks with one name (a script and a workflow step both called `npm test`): the later is renamed. */
function uniqueNames(checks: CheckDefinition[]): CheckDefinition[] {
  const seen = new Set<string>();
  return checks.map((check) => {
    let name = check.name;
    for (let index = 2; seen.has(name); index++) name = `${check.name} (${index})`;
    seen.add(name);
    return name === check.name ? check : { ...check, name };
  });
}
