/**
 * The import graph of src/, as TypeScript reads it: static imports and re-exports (type-only ones too,
 * since a type import is still an arrow between two files) and `import()` calls.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const sourceRoot = path.resolve(import.meta.dirname, '../../src');

export interface SourceFile {
  /** Relative to src/, with forward slashes. */
  path: string;
  lines: number;
  /** The files of src/ it imports, relative to src/. */
  imports: string[];
}

export function readSourceGraph(): SourceFile[] {
  const files = listTypeScript(sourceRoot);
  const known = new Set(files);
  return files.map((file) => {
    const text = readFileSync(path.join(sourceRoot, file), 'utf8');
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((entry) => entry.fileName)
      // A data file (`model-prices.json`) imports nothing: it is no arrow of the graph.
      .filter(
        (specifier) =>
          specifier.startsWith('.') && !(specifier.endsWith('.json') && existsSync(path.join(sourceRoot, path.dirname(file), specifier))),
      )
      .map((specifier) => resolveImport(file, specifier, known))
      .filter((target): target is string => target !== undefined);
    return { path: file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports: [...new Set(imports)] };
  });
}

function listTypeScript(root: string, prefix = ''): string[] {
  return readdirSync(path.join(root, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(path.join(root, relative)).isDirectory()) return listTypeScript(root, relative);
    return name.endsWith('.ts') ? [relative] : [];
  });
}

function resolveImport(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [joined.replace(/\.js$/, '.ts'), `${joined}.ts`, `${joined}/index.ts`, joined];
  const found = candidates.find((candidate) => known.has(candidate));
  if (!found) throw new Error(`${from} imports ${specifier}, which is no file of src/`);
  return found;
}

/** The groups of files that import one another in a ring (strongly connected, more than one member). */
export function circles(nodes: readonly string[], edges: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}
