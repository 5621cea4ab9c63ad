/**
 * Where hooks are configured, read at each task's start so an edit to a settings file counts for the next
 * task: the user's own files first, then the project's, all merged as Claude Code merges them (every
 * matching hook runs; the same command twice for one event runs once). A workspace file that is a link
 * leading out of the workspace is refused: it would make whatever it points at run on every tool call.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { readBounded } from '../workspace/bounded-read.js';
import { isInside } from '../workspace/paths.js';
import { type HookDefinition, parseHookSettings } from './hook-config.js';

/** The user's settings files, relative to their home. */
export const userHookFiles = ['.claude/settings.json', '.agent-team/settings.json'] as const;
/** The project's, relative to the workspace root (`.claude/settings.local.json` is the user's, not committed). */
export const workspaceHookFiles = ['.claude/settings.json', '.claude/settings.local.json', '.agent-team/settings.json'] as const;
/** Folders of the user's hook scripts, readable inside the sandbox although the home is hidden. */
export const userHookFolders = ['.claude/hooks', '.agent-team/hooks'] as const;
/** A settings file larger than this is not read (settings are a few kilobytes). */
export const maxHookSettingsBytes = 256 * 1024;

export interface LoadedHooks {
  hooks: HookDefinition[];
  /** The files read, as named to the user. */
  sources: string[];
  /** Files not read, entries not run: each names what and why. */
  problems: string[];
}

export async function loadHooks(root: string, home: string | undefined): Promise<LoadedHooks> {
  const files = [
    ...(home === undefined ? [] : userHookFiles.map((relative) => ({ absolute: path.join(home, relative), label: `~/${relative}`, inside: undefined }))),
    ...workspaceHookFiles.map((relative) => ({ absolute: path.join(root, relative), label: relative, inside: root })),
  ];
  const read = await Promise.all(files.map((file) => readSettings(file.absolute, file.label, file.inside)));
  const loaded: LoadedHooks = { hooks: [], sources: [], problems: [] };
  let disableAll: string | undefined;
  for (const [index, outcome] of read.entries()) {
    if (outcome === undefined) continue;
    const label = files[index].label;
    if ('problem' in outcome) {
      loaded.problems.push(outcome.problem);
      continue;
    }
    const parsed = parseHookSettings(outcome.settings, label);
    loaded.problems.push(...parsed.problems);
    if (parsed.hooks.length > 0) loaded.sources.push(label);
    if (parsed.disableAll) disableAll ??= label;
    loaded.hooks.push(...parsed.hooks);
  }
  if (disableAll !== undefined) return { hooks: [], sources: [], problems: [...loaded.problems, `No hook runs: ${disableAll} sets "disableAllHooks"`] };
  loaded.hooks = withoutRepeats(loaded.hooks);
  return loaded;
}

type SettingsOutcome = { settings: unknown } | { problem: string } | undefined;

async function readSettings(absolute: string, label: string, inside: string | undefined): Promise<SettingsOutcome> {
  const real = await realpath(absolute).catch(() => undefined);
  if (real === undefined) return undefined;
  if (inside !== undefined) {
    const realRoot = await realpath(inside).catch(() => inside);
    if (!isInside(realRoot, real)) return { problem: `${label} was not read: it is a link that leads outside the workspace; its hooks are not run` };
  }
  try {
    const read = await readBounded(real, maxHookSettingsBytes);
    if (read.cut) return { problem: `${label} was not read: it is larger than ${maxHookSettingsBytes / 1024} KiB; its hooks are not run` };
    return { settings: JSON.parse(read.text) as unknown };
  } catch (error) {
    return { problem: `${label} was not read: ${errorMessage(error)}; its hooks are not run` };
  }
}

/** The same command for the same event and matcher, from two files, runs once (the first file's). */
function withoutRepeats(hooks: readonly HookDefinition[]): HookDefinition[] {
  const seen = new Set<string>();
  return hooks.filter((hook) => {
    const key = JSON.stringify([hook.event, hook.matcherText, hook.command]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
