import * as nodePath from 'node:path';
import { WorkspaceError } from '../errors.js';

/**
 * Turns what a model or user typed (relative to the root, or absolute inside it; either separator) into
 * the workspace-relative POSIX path the `Workspace` interface speaks. `''` is the root itself.
 * Refuses anything that leaves the root lexically; symlinks are checked by the host (see node-confinement).
 */
export function toWorkspacePath(root: string, input: string): string {
  if (isPlainRelativePath(input)) return input;
  const trimmed = input.trim();
  if (trimmed.includes('\0')) {
    throw new WorkspaceError('invalid', `The path ${JSON.stringify(input)} contains a NUL character.`, input);
  }
  const absolute = nodePath.isAbsolute(trimmed) ? trimmed : nodePath.join(root, trimmed);
  const relative = nodePath.relative(root, nodePath.resolve(absolute));
  const posix = relative.split(nodePath.sep).join('/');
  if (posix === '..' || posix.startsWith('../') || nodePath.isAbsolute(relative)) {
    throw outsideWorkspace(input, root);
  }
  return posix;
}

/**
 * True for a path that is already in the form `toWorkspacePath` returns, relative and POSIX with nothing
 * to resolve: every path the tools pass on (a `Read` asks for its file four times on the way to the disk),
 * and most a model types. Those skip `path.resolve` and `path.relative` (B2 in docs/performance.md).
 */
function isPlainRelativePath(input: string): boolean {
  if (input === '' || input.length > 4096 || input.charCodeAt(0) === slash) return false;
  if (nodePath.sep === '\\' && (input.includes('\\') || input.includes(':'))) return false;
  let segmentStart = 0;
  for (let index = 0; index <= input.length; index++) {
    const code = index === input.length ? slash : input.charCodeAt(index);
    // Spaces (which the full resolution trims at the ends), control characters and NUL go the long way.
    if (code <= space) return false;
    if (code !== slash) continue;
    const length = index - segmentStart;
    // An empty segment (`a//b`, a trailing `/`), `.` and `..` need resolving.
    if (length === 0) return false;
    if (input.charCodeAt(segmentStart) === dot && (length === 1 || (length === 2 && input.charCodeAt(segmentStart + 1) === dot)))
      return false;
    segmentStart = index + 1;
  }
  return true;
}

/** True when a path has a `.` or `..` segment or a doubled slash: `path.relative` resolves those. */
function hasDotSegment(path: string): boolean {
  return path.includes('/./') || path.includes('/../') || path.endsWith('/.') || path.endsWith('/..') || path.includes('//');
}

const slash = 0x2f;
const dot = 0x2e;
const space = 0x20;

export function outsideWorkspace(input: string, root: string): WorkspaceError {
  return new WorkspaceError(
    'outside-workspace',
    `${input} is outside the workspace (${root}). Only files inside the workspace can be read or edited; use a path relative to the workspace root.`,
    input,
  );
}

/** True when `child` (absolute, resolved) is `parent` or lies inside it. */
export function isInside(parent: string, child: string): boolean {
  // Resolved POSIX paths compare as strings: a real path is checked on every file operation (B2). Windows
  // paths compare without regard to case, which `path.relative` knows.
  if (nodePath.sep === '/' && parent.startsWith('/') && child.startsWith('/') && !hasDotSegment(parent) && !hasDotSegment(child)) {
    const base = parent.endsWith('/') ? parent : `${parent}/`;
    return child === parent || `${child}/` === base || child.startsWith(base);
  }
  const relative = nodePath.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative));
}

/** Joins workspace-relative POSIX segments, treating `''` as the root. */
export function joinWorkspacePath(base: string, name: string): string {
  if (name === '') return base;
  return base === '' ? name : `${base}/${name}`;
}

/** Makes `path` relative to the workspace-relative directory `base` (which must contain it). */
export function relativeTo(base: string, path: string): string {
  if (base === '') return path;
  return path === base ? '' : path.slice(base.length + 1);
}

/** True when `path` is `directory` or lies inside it (both workspace-relative POSIX). */
export function isWithin(directory: string, path: string): boolean {
  return directory === '' || path === directory || path.startsWith(`${directory}/`);
}

/**
 * The one order every listing and search result uses: component by component, each name compared by
 * code point (= UTF-8 byte order, which is how ripgrep's `--sort path` orders a directory walk).
 * So `a/b` sorts before `a.txt`, exactly as a depth-first sorted walk visits them.
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const order = compareNames(left[index], right[index]);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** Code-point order; plain `<` compares UTF-16 units, which misplaces astral characters. */
export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    if (left < 0xd800 && right < 0xd800) return left - right;
    return (a.codePointAt(index) ?? 0) - (b.codePointAt(index) ?? 0);
  }
  return a.length - b.length;
}
