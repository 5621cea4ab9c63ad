/**
 * Whether an edit to a package manifest changes what its `scripts` run. `npm install`, `npm test` and
 * friends run those commands, so a changed script is code the user has not read; a dependency bump is
 * not (install scripts of dependencies are another matter, outside an edit's reach).
 *
 * Compared as parsed JSON, so re-indenting or reordering other fields is not a change; reordering the
 * scripts themselves is not either (npm runs them by name). A manifest that cannot be parsed, before or
 * after, counts as a change: what npm would make of it is not something to guess.
 */
export function scriptsChanged(before: string | null, after: string | null): boolean {
  const old = scriptsOf(before);
  const next = scriptsOf(after);
  if (old === unparseable || next === unparseable) return true;
  return !sameScripts(old, next);
}

const unparseable = Symbol('unparseable');

type Scripts = Record<string, unknown> | undefined;

/** The `scripts` value (undefined when the file or the field is absent), or `unparseable`. */
function scriptsOf(text: string | null): Scripts | typeof unparseable {
  if (text === null) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    return unparseable;
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return unparseable;
  if (!Object.hasOwn(manifest, 'scripts')) return undefined;
  const scripts = (manifest as { scripts: unknown }).scripts;
  // npm ignores a `scripts` that is not an object; an odd value is still compared exactly.
  return typeof scripts === 'object' && scripts !== null && !Array.isArray(scripts) ? (scripts as Record<string, unknown>) : { '': scripts };
}

function sameScripts(a: Scripts, b: Scripts): boolean {
  const left = a ?? {};
  const right = b ?? {};
  // An absent `scripts` and an empty one run the same nothing.
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    if (!Object.hasOwn(left, key) || !Object.hasOwn(right, key)) return false;
    if (JSON.stringify(left[key]) !== JSON.stringify(right[key])) return false;
  }
  return true;
}
