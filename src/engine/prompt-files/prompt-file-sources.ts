/**
 * Where prompt files are found: `.github/prompts/*.prompt.md` (VS Code) and `.claude/commands/*.md`
 * (Claude Code) of the workspace, each through the one confined reader. They are orders from the
 * repository: none is read where the folder is not trusted (the caller decides; see prompt-commands.ts).
 * A name in both folders: the `.github/prompts` file wins (this is a VS Code extension first) and the
 * other is reported; a name of a built-in command (`/plan`, `/workflow`) is the built-in's.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedFileReader, notReadProblem } from '../workspace/confined-file-reader.js';
import { parsePromptFile, type PromptFile, promptFileLimits, promptNamePattern } from './prompt-file-definition.js';

/** The folders, in the order a clash is decided, with the ending that makes a file one of them. */
export const promptFileFolders = [
  { folder: '.github/prompts', suffix: '.prompt.md' },
  { folder: '.claude/commands', suffix: '.md' },
] as const;

/** Commands `@team` (and `agent-team run`) have of their own: a prompt file of that name is not used. */
export const builtInCommands: readonly string[] = ['plan', 'workflow'];

export interface FoundPromptFiles {
  promptFiles: PromptFile[];
  /** Files not read or not used, each with why. */
  problems: string[];
}

export async function findPromptFiles(root: string): Promise<FoundPromptFiles> {
  const reader = new ConfinedFileReader(root);
  const found: FoundPromptFiles = { promptFiles: [], problems: [] };
  for (const { folder, suffix } of promptFileFolders) {
    const names = await fileNames(root, folder, suffix);
    if (names.length > promptFileLimits.perFolder) found.problems.push(`${folder} has ${names.length} prompt files: only the first ${promptFileLimits.perFolder} (by name) are read`);
    for (const fileName of names.slice(0, promptFileLimits.perFolder)) {
      const label = `${folder}/${fileName}`;
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
      const outcome = await reader.read(label, promptFileLimits.fileBytes);
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
      const parsed = parsePromptFile(outcome.read.text, { name, label, digest });
      if ('problem' in parsed) found.problems.push(parsed.problem);
      else found.promptFiles.push(parsed.promptFile);
    }
  }
  return found;
}

/** The names of the folder's entries that end with `suffix` (files, or links the reader will judge), sorted. */
async function fileNames(root: string, folder: string, suffix: string): Promise<string[]> {
  const entries = await readdir(path.join(root, ...folder.split('/')), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(suffix) && entry.name.length > suffix.length)
    .map((entry) => entry.name)
    .sort();
}
