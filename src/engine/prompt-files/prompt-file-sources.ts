/**
 * Where prompt files are found: `.github/prompts/*.prompt.md` (VS Code) and `.claude/commands/*.md`
 * (Claude Code) of the workspace, each through the one confined reader. They are orders from the
 * repository: none is read where the folder is not trusted (the caller decides; see prompt-commands.ts).
 * A name in both folders: the `.github/prompts` file wins (this is a VS Code extension first) and the
 * other is reported; a name of a built-in command (`/plan`, `/workflow`) is the built-in's.
 * Then the user's own commands, `~/.claude/commands/*.md` (Claude Code's user level): theirs, so read
 * whether or not the folder is trusted, and below the workspace's on a name clash (as roles and skills
 * are). A home that is the workspace itself adds nothing: those files are the workspace's, under its trust.
 */
import { createHash } from 'node:crypto';
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedFileReader, notReadProblem } from '../workspace/confined-file-reader.js';
import { parsePromptFile, type PromptFile, promptFileLimits, type PromptFileScope, promptNamePattern } from './prompt-file-definition.js';

/** The folders, in the order a clash is decided, with the ending that makes a file one of them. */
export const promptFileFolders = [
  { folder: '.github/prompts', suffix: '.prompt.md' },
  { folder: '.claude/commands', suffix: '.md' },
] as const;

/** The user's commands, relative to their home (Claude Code's user-level commands). */
export const userCommandFolder = { folder: '.claude/commands', suffix: '.md' } as const;

/** Commands `@team` (and `agent-team run`) have of their own: a prompt file of that name is not used. */
export const builtInCommands: readonly string[] = ['plan', 'workflow'];

export interface FoundPromptFiles {
  promptFiles: PromptFile[];
  /** Files not read or not used, each with why. */
  problems: string[];
}

export interface PromptFilePlaces {
  /** The user's home, for their own commands. Default: none read. */
  home?: string;
  /** False where the folder is not trusted: none of its prompt files is read (the user's still are). Default true. */
  workspaceAllowed?: boolean;
}

export async function findPromptFiles(root: string, places: PromptFilePlaces = {}): Promise<FoundPromptFiles> {
  const found: FoundPromptFiles = { promptFiles: [], problems: [] };
  if (places.workspaceAllowed !== false) {
    const reader = new ConfinedFileReader(root);
    for (const { folder, suffix } of promptFileFolders) await readFolder(found, { base: root, reader, folder, suffix, scope: 'workspace' });
  }
  if (places.home !== undefined && !(await sameFolder(places.home, root))) {
    const reader = new ConfinedFileReader(places.home, { folderName: 'your home folder', refuseLinksToIgnored: false });
    await readFolder(found, { base: places.home, reader, ...userCommandFolder, scope: 'user' });
  }
  return found;
}

interface FolderToRead {
  base: string;
  reader: ConfinedFileReader;
  folder: string;
  suffix: string;
  scope: PromptFileScope;
}

/** Adds the folder's prompt files to `found`, after those already there (which win a clash). */
async function readFolder(found: FoundPromptFiles, { base, reader, folder, suffix, scope }: FolderToRead): Promise<void> {
  const prefix = scope === 'user' ? '~/' : '';
  const names = await fileNames(base, folder, suffix);
  if (names.length > promptFileLimits.perFolder)
    found.problems.push(
      `${prefix}${folder} has ${names.length} prompt files: only the first ${promptFileLimits.perFolder} (by name) are read`,
    );
  for (const fileName of names.slice(0, promptFileLimits.perFolder)) {
    const label = `${prefix}${folder}/${fileName}`;
    const name = fileName.slice(0, -suffix.length);
    if (!promptNamePattern.test(name)) {
      found.problems.push(`${label} was not used: "/${name}" is not a command name (letters, digits, "-", "_" and ".")`);
      continue;
    }
    const earlier = found.promptFiles.find((each) => each.name.toLowerCase() === name.toLowerCase());
    if (earlier) {
      found.problems.push(`${label} was not used: /${name} is ${earlier.label}`);
      continue;
    }
    if (builtInCommands.includes(name.toLowerCase())) {
      found.problems.push(`${label} was not used: /${name} is a built-in command`);
      continue;
    }
    const outcome = await reader.read(`${folder}/${fileName}`, promptFileLimits.fileBytes);
    if (outcome === undefined) continue;
    if ('refused' in outcome) {
      found.problems.push(notReadProblem(label, outcome.refused));
      continue;
    }
    if (outcome.read.cut) {
      found.problems.push(`${label} was not used: it is larger than ${promptFileLimits.fileBytes / 1024} KB`);
      continue;
    }
    const digest = `sha256:${createHash('sha256').update(outcome.read.text).digest('hex')}`;
    const parsed = parsePromptFile(outcome.read.text, { name, label, digest, scope });
    if ('problem' in parsed) found.problems.push(parsed.problem);
    else found.promptFiles.push(parsed.promptFile);
  }
}

/** Whether two paths are one folder (links resolved); a missing one is no folder of the other. */
async function sameFolder(one: string, other: string): Promise<boolean> {
  const [first, second] = await Promise.all([
    realpath(one).catch(() => path.resolve(one)),
    realpath(other).catch(() => path.resolve(other)),
  ]);
  return first === second;
}

/** The names of the folder's entries that end with `suffix` (files, or links the reader will judge), sorted. */
async function fileNames(root: string, folder: string, suffix: string): Promise<string[]> {
  const entries = await readdir(path.join(root, ...folder.split('/')), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(suffix) && entry.name.length > suffix.length)
    .map((entry) => entry.name)
    .sort();
}
