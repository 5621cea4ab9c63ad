/**
 * Where hooks are configured, read at each task's start so an edit to a settings file counts for the next
 * task: the user's own files first, then the project's, all merged as Claude Code merges them (every
 * matching hook runs; the same command twice for one event runs once). Every file is read through the one
 * confined reader (../workspace/confined-file-reader.ts), by the same rules as `Read`: a workspace file
 * that is a link leading out of the workspace, or to a secret (`.env`, a key, `.git/config`, an ignored
 * file), is refused: it would make whatever it points at run on every tool call, or show it in an error.
 */
import { ConfinedFileReader, notReadProblem } from '../workspace/confined-file-reader.js';
import { type HookDefinition, parseHookSettings } from './hook-config.js';
import { parseJsonQuietly } from '../workspace/echo-free-parse.js';

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
  const userFolder =
    home === undefined ? undefined : new ConfinedFileReader(home, { folderName: 'your home folder', refuseLinksToIgnored: false });
  const workspace = new ConfinedFileReader(root);
  const files = [
    ...(userFolder === undefined ? [] : userHookFiles.map((relative) => ({ reader: userFolder, relative, label: `~/${relative}` }))),
    ...workspaceHookFiles.map((relative) => ({ reader: workspace, relative, label: relative })),
  ];
  const read = await Promise.all(files.map((file) => readSettings(file.reader, file.relative, file.label)));
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
  if (disableAll !== undefined)
    return { hooks: [], sources: [], problems: [...loaded.problems, `No hook runs: ${disableAll} sets "disableAllHooks"`] };
  loaded.hooks = withoutRepeats(loaded.hooks);
  return loaded;
}

export type SettingsOutcome = { settings: unknown } | { problem: string } | undefined;

/** One settings file: its JSON, or why it was not read (the rule or the parse error's place, never its text). */
export async function readSettings(reader: ConfinedFileReader, relative: string, label: string): Promise<SettingsOutcome> {
  const outcome = await reader.read(relative, maxHookSettingsBytes);
  if (outcome === undefined) return undefined;
  if ('refused' in outcome) return { problem: `${notReadProblem(label, outcome.refused)}; its hooks are not run` };
  if (outcome.read.cut)
    return { problem: `${notReadProblem(label, `it is larger than ${maxHookSettingsBytes / 1024} KiB`)}; its hooks are not run` };
  const parsed = parseJsonQuietly(outcome.read.text);
  if (!parsed.ok) return { problem: `${notReadProblem(label, parsed.problem)}; its hooks are not run` };
  return { settings: parsed.value };
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
