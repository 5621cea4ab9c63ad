/**
 * One front door: the hosts (src/cli, src/extension) reach the engine only through src/engine/index.ts, so
 * what is public is decided in one file, not by whichever engine file a host happened to import. The
 * sidebar's browser bundle (src/webview, src/shared) is no host: it shares a few value modules (snapshot
 * types, formatting) and may not carry the engine, so it may not import the door, nor any engine file that
 * reaches Node's modules.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readSourceGraph, sourceRoot } from './source-graph.js';

const files = readSourceGraph();
const byPath = new Map(files.map((file) => [file.path, file]));
const door = 'engine/index.ts';
const isHost = (file: string) => file.startsWith('cli/') || file.startsWith('extension/');
const isBrowser = (file: string) => file.startsWith('webview/') || file.startsWith('shared/');

/** The Node modules (`node:fs`, `fs`, …) a file imports by name. */
function nodeModules(file: string): string[] {
  const text = readFileSync(path.join(sourceRoot, file), 'utf8');
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith('node:') || ['fs', 'path', 'os', 'child_process', 'crypto'].includes(specifier));
}

/**
 * The files of src/ `file` imports at run time: type-only imports and specifiers are erased by the build,
 * so they bring no code (and no Node module) into the browser bundle.
 */
function valueImports(file: string): string[] {
  const text = readFileSync(path.join(sourceRoot, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers = source.statements.flatMap((statement) => {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) return [];
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) return [];
      const bindings = clause?.namedBindings;
      const allTypes = !clause?.name && bindings && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly);
      if (allTypes && bindings.elements.length > 0) return [];
    } else if (statement.isTypeOnly) return [];
    return [(statement.moduleSpecifier as ts.StringLiteral).text];
  });
  const targets = byPath.get(file)?.imports ?? [];
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts'))
    .filter((target) => targets.includes(target));
}

/** Every file `start` reaches through its run-time imports, itself included. */
function reach(start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...valueImports(next));
  }
  return seen;
}

describe('the engine front door', () => {
  it('exists and re-exports only engine files', () => {
    expect(byPath.has(door)).toBe(true);
    expect(byPath.get(door)!.imports.filter((target) => !target.startsWith('engine/'))).toEqual([]);
  });

  it('is the only engine file a host imports', () => {
    const strays = files
      .filter((file) => isHost(file.path))
      .flatMap((file) =>
        file.imports.filter((target) => target.startsWith('engine/') && target !== door).map((target) => `${file.path} → ${target}`),
      );
    expect(strays).toEqual([]);
  });

  it('is used by the hosts (a door nobody walks through is no door)', () => {
    expect(files.filter((file) => isHost(file.path) && file.imports.includes(door)).length).toBeGreaterThan(50);
  });

  it('is not imported from inside the engine, which would make a ring through it', () => {
    expect(files.filter((file) => file.path.startsWith('engine/') && file.imports.includes(door)).map((file) => file.path)).toEqual([]);
  });

  it('keeps the browser bundle free of the engine: the sidebar imports no door and no file that reaches Node', () => {
    const found = files
      .filter((file) => isBrowser(file.path))
      .flatMap((file) => file.imports.filter((target) => target.startsWith('engine/')).map((target) => ({ from: file.path, target })))
      .flatMap(({ from, target }) =>
        target === door
          ? [`${from} → the door`]
          : [...reach(target)]
              .filter((reached) => nodeModules(reached).length > 0)
              .map((reached) => `${from} → ${target} reaches ${reached}`),
      );
    expect(found).toEqual([]);
  });
});
