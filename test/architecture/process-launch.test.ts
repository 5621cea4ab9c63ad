/**
 * One launcher: src/engine/process-launcher.ts is the only file of src that starts a process, so the
 * policy it applies (the caller's environment only, stdin closed, no shell, no window) holds for every
 * process, and the sandbox's own launch (commands/sandbox/command-launch.ts) cannot be walked around by a
 * file that starts one by itself. Read from the sources as TypeScript parses them: imports (static,
 * `import()`, `require`) of a module that starts processes, and calls of their functions by name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceRoot } from './source-graph.js';

/** The launcher, relative to src/. */
const launcher = 'engine/process-launcher.ts';

/** Modules that start processes. */
const processModules = new Set(['child_process', 'node:child_process', 'cross-spawn', 'execa']);

/**
 * The one exception, with its reason: the MCP SDK's StdioClientTransport starts a role's or the
 * workspace's MCP server itself (it owns the pipes of its protocol). It is given the command that
 * commands/sandbox/server-launch.ts builds with `bubblewrapArguments`, the same sandbox commands get;
 * the SDK module is imported in one file and the transport made in one other, so no third can use it.
 */
const stdioTransport = {
  module: '@modelcontextprotocol/sdk/client/stdio.js',
  importedBy: 'engine/mcp/mcp-client-sdk.ts',
  constructedBy: 'engine/mcp/mcp-connection.ts',
};

/** Functions that start a process, by the name they are called with. `exec` is left out: RegExp has one. */
const startingCalls = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'execSync', 'fork']);

/** What in `text` starts a process or could: `import x` / `call y` lines, with their line numbers. */
function processStarts(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
              (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
            node.arguments[0] &&
            ts.isStringLiteralLike(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    if (specifier !== undefined && (processModules.has(specifier) || specifier === stdioTransport.module))
      found.push(`${at(node)}: import ${specifier}`);
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      if (name !== undefined && startingCalls.has(name)) found.push(`${at(node)}: call ${name}`);
    }
    if (ts.isNewExpression(node)) {
      const made = node.expression;
      const name = ts.isIdentifier(made) ? made.text : ts.isPropertyAccessExpression(made) ? made.name.text : undefined;
      if (name === 'StdioClientTransport') found.push(`${at(node)}: new StdioClientTransport`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(prefix = ''): string[] {
  return readdirSync(path.join(sourceRoot, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(path.join(sourceRoot, relative)).isDirectory()) return sourceFiles(relative);
    return name.endsWith('.ts') ? [relative] : [];
  });
}

/** Whether `start` in `file` is the allowed exception. */
function allowed(file: string, start: string): boolean {
  if (file === launcher) return true;
  if (file === stdioTransport.importedBy && start.endsWith(`import ${stdioTransport.module}`)) return true;
  return file === stdioTransport.constructedBy && start.endsWith('new StdioClientTransport');
}

describe('starting a process', () => {
  it('happens in src/engine/process-launcher.ts only (and the MCP SDK stdio transport, in its two files)', () => {
    const elsewhere = sourceFiles().flatMap((file) =>
      processStarts(file, readFileSync(path.join(sourceRoot, file), 'utf8'))
        .filter((start) => !allowed(file, start))
        .map((start) => `${file}:${start}`),
    );
    expect(elsewhere).toEqual([]);
  });

  it('is found however it is written', () => {
    const sample = [
      "import { spawn } from 'node:child_process';",
      "import * as cp from 'child_process';",
      "export { fork } from 'node:child_process';",
      "const later = await import('node:child_process');",
      "const required = require('child_process');",
      'spawn("sh", []); cp.execFile("x"); later.spawnSync("y"); required.execSync("z");',
      "import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';",
      'new sdk.StdioClientTransport({ command: "x" });',
      '/a/.exec("b");',
    ].join('\n');
    expect(processStarts('sample.ts', sample)).toEqual([
      '1: import node:child_process',
      '2: import child_process',
      '3: import node:child_process',
      '4: import node:child_process',
      '5: import child_process',
      '6: call spawn',
      '6: call execFile',
      '6: call spawnSync',
      '6: call execSync',
      '7: import @modelcontextprotocol/sdk/client/stdio.js',
      '8: new StdioClientTransport',
    ]);
  });

  it('has the launcher and the exception where this test says they are', () => {
    const files = new Set(sourceFiles());
    for (const file of [launcher, stdioTransport.importedBy, stdioTransport.constructedBy]) expect(files.has(file)).toBe(true);
    expect(
      processStarts(launcher, readFileSync(path.join(sourceRoot, launcher), 'utf8')).some((start) =>
        start.endsWith('import node:child_process'),
      ),
    ).toBe(true);
  });
});
