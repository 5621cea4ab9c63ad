/**
 * The engine's composition, checked: no import circle between files (type imports included) nor between
 * the engine's folders, and no arrow that runs back up across the floors docs/architecture.md lists.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, readSourceGraph } from './source-graph.js';

const graph = readSourceGraph();
const architecture = readFileSync(path.resolve(import.meta.dirname, '../../docs/architecture.md'), 'utf8');

/**
 * The engine folder a file is in: `(root)` for the files directly in src/engine; the front door
 * (`index.ts`, which re-exports from every floor for the hosts) is a floor of its own, on top.
 */
function engineFolder(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'engine') return undefined;
  if (file === 'engine/index.ts') return 'index.ts';
  return parts.length > 2 ? parts[1] : '(root)';
}

/** The floors table of docs/architecture.md: each folder's floor number. */
function documentedFloors(): Map<string, number> {
  const floors = new Map<string, number>();
  for (const match of architecture.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    for (const folder of match[2]!.matchAll(/`([^`]+)`/g)) floors.set(folder[1]!, Number(match[1]));
  }
  return floors;
}

describe('the import graph of src/', () => {
  it('has no circle between files, type imports included', () => {
    const byPath = new Map(graph.map((file) => [file.path, file.imports]));
    expect(circles([...byPath.keys()], (file) => byPath.get(file) ?? [])).toEqual([]);
  });

  it('has no circle between the engine folders', () => {
    const arrows = new Map<string, Set<string>>();
    for (const file of graph) {
      const from = engineFolder(file.path);
      if (!from) continue;
      for (const target of file.imports) {
        const to = engineFolder(target);
        if (to && to !== from) arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
      }
    }
    expect(circles([...arrows.keys()], (folder) => [...(arrows.get(folder) ?? [])])).toEqual([]);
  });

  it('puts every engine folder on a floor of docs/architecture.md, and each imports only from floors below its own', () => {
    const floors = documentedFloors();
    const folders = new Set(graph.map((file) => engineFolder(file.path)).filter((folder): folder is string => folder !== undefined));
    expect([...folders].filter((folder) => !floors.has(folder)).sort()).toEqual([]);
    expect([...floors.keys()].filter((folder) => !folders.has(folder)).sort()).toEqual([]);
    const upward = graph.flatMap((file) => {
      const from = engineFolder(file.path);
      if (!from) return [];
      return file.imports
        .filter((target) => {
          const to = engineFolder(target);
          return to !== undefined && to !== from && floors.get(to)! >= floors.get(from)!;
        })
        .map((target) => `${file.path} → ${target}`);
    });
    expect(upward).toEqual([]);
  });

  it('keeps the engine free of its hosts: it imports neither the CLI, the extension, the sidebar nor their protocol', () => {
    const outward = graph
      .filter((file) => engineFolder(file.path) !== undefined)
      .flatMap((file) => file.imports.filter((target) => !target.startsWith('engine/')).map((target) => `${file.path} → ${target}`));
    expect(outward).toEqual([]);
  });

  it('keeps the hosts apart: the CLI, the extension and the sidebar import none of one another, the protocol none of them', () => {
    const top = (file: string) => file.split('/')[0]!;
    const allowed: Record<string, readonly string[]> = {
      cli: ['engine'],
      extension: ['engine', 'shared'],
      webview: ['engine', 'shared'],
      shared: ['engine'],
      engine: ['engine'],
    };
    const crossing = graph.flatMap((file) =>
      file.imports
        .filter((target) => top(target) !== top(file.path) && !(allowed[top(file.path)] ?? []).includes(top(target)))
        .map((target) => `${file.path} → ${target}`),
    );
    expect(crossing).toEqual([]);
  });
});
