/**
 * `createEngine` is the composition root (issue 42): no host (src/cli, src/extension) constructs the task
 * manager, the change-set registry, the role registry or a run log, and none writes the shutdown sequence
 * itself; they pass ports and call `engine.close()`. Read from the sources with TypeScript's parser, so an
 * alias (`import { TaskManager as Tasks }`) or a line break does not hide a construction.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readSourceGraph, sourceRoot } from './source-graph.js';

/** The engine's parts only the engine builds, by the name each file of src/engine exports them under. */
const engineParts = ['TaskManager', 'ChangeSetRegistry', 'RoleRegistry', 'RunLog', 'RunStorage', 'RunLogWriter', 'RunRecorder'];
/** Functions that would build a part (a run log's recorder), should one be added. */
const partFactories = ['createRunRecorder'];
/** The steps of the shutdown sequence, which only engine-shutdown.ts orders. */
const shutdownSteps = [/\btaskManager\.close\(/, /\broles\.dispose\(/, /\.closeTelemetry\(/];

const hostFolders = ['cli/', 'extension/'];

/** Every construction of an engine part in `text`: `new TaskManager(…)`, `RunLog.open(…)`, `createRunRecorder(…)`. */
function partConstructions(text: string): string[] {
  const source = ts.createSourceFile('host.ts', text, ts.ScriptTarget.Latest, true);
  // Local name -> exported name, for the parts this file imports (aliases included).
  const imported = new Map<string, string>();
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const exported = (element.propertyName ?? element.name).text;
      if (engineParts.includes(exported) || partFactories.includes(exported)) imported.set(element.name.text, exported);
    }
  }
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
      const name = imported.get(node.expression.text) ?? node.expression.text;
      if (engineParts.includes(name)) found.push(`new ${name}`);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && partFactories.includes(imported.get(callee.text) ?? callee.text))
        found.push(`${imported.get(callee.text) ?? callee.text}()`);
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
        const owner = imported.get(callee.expression.text) ?? callee.expression.text;
        if (engineParts.includes(owner) && callee.name.text === 'open') found.push(`${owner}.open`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function hostFiles(): { path: string; text: string }[] {
  return readSourceGraph()
    .filter((file) => hostFolders.some((folder) => file.path.startsWith(folder)))
    .map((file) => ({ path: file.path, text: readFileSync(path.join(sourceRoot, file.path), 'utf8') }));
}

describe('the composition root', () => {
  it('finds a construction however it is written (the check itself works)', () => {
    const text = [
      "import { TaskManager as Tasks } from '../engine/tasks/task-manager.js';",
      "import { RunLog } from '../engine/runs/run-log.js';",
      "import { createRunRecorder } from '../engine/runs/run-recorder.js';",
      'const tasks = new Tasks({});',
      'const log = await RunLog\n  .open({ directory });',
      'const registry = new ChangeSetRegistry();',
      'createRunRecorder(storage);',
      "const roles = new RoleRegistry({ source: new NodeRoleFileSource('.') });",
    ].join('\n');
    expect(partConstructions(text).sort()).toEqual(
      ['new TaskManager', 'RunLog.open', 'new ChangeSetRegistry', 'createRunRecorder()', 'new RoleRegistry'].sort(),
    );
    expect(partConstructions("import type { TaskManager } from './x.js';\nlet manager: TaskManager;")).toEqual([]);
  });

  it('no host constructs the task manager, the change sets, the role registry or a run log', () => {
    const hosts = hostFiles();
    expect(hosts.length).toBeGreaterThan(50);
    const offenders = hosts.flatMap((file) => partConstructions(file.text).map((construction) => `${file.path}: ${construction}`));
    expect(offenders).toEqual([]);
  });

  it('no host writes the shutdown sequence: each calls the engine’s close()', () => {
    const offenders = hostFiles().flatMap((file) =>
      shutdownSteps.filter((step) => step.test(file.text)).map((step) => `${file.path}: ${step.source}`),
    );
    expect(offenders).toEqual([]);
  });
});
