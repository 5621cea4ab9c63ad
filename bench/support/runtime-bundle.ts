/**
 * Bundles at run time with the project's esbuild: B4's page script (a browser bundle of its own) and B5's
 * activation probe (a small Node program of its own). esbuild
 * is loaded from the project's node_modules rather than bundled into the benchmark (it ships a binary).
 */
import type * as Esbuild from 'esbuild';
import { createRequire } from 'node:module';
import * as nodePath from 'node:path';

function esbuild(): typeof Esbuild {
  return createRequire(nodePath.resolve('package.json'))('esbuild') as typeof Esbuild;
}

/** An IIFE for the browser, minified as the shipped webview bundle is. */
export async function bundleForBrowser(entryPoint: string): Promise<string> {
  const result = await esbuild().build({
    entryPoints: [entryPoint],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** A CommonJS program for Node, written to `outfile`. */
export async function bundleForNode(entryPoint: string, outfile: string): Promise<void> {
  await esbuild().build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}
