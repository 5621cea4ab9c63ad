/**
 * Where skills are found, and reading them: the workspace's `.claude/skills/<name>/SKILL.md` and
 * `.github/skills/<name>/SKILL.md` (repository content: through the one confined reader, and only where
 * the folder is trusted), then the user's `~/.claude/skills/<name>/SKILL.md` (theirs, read from their home
 * by the same rules). A name found twice is used once: the workspace's `.claude` before its `.github`,
 * the workspace before the user (as with roles); the hidden one is reported.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedFileReader, notReadProblem } from '../workspace/confined-file-reader.js';
import { parseSkillFile, type SkillDefinition, skillLimits, type SkillScope } from './skill-definition.js';

/** The workspace's skill folders, in the order a clash is decided. */
export const workspaceSkillFolders = ['.claude/skills', '.github/skills'] as const;
/** The user's skill folder, relative to their home. */
export const userSkillFolder = '.claude/skills';

export interface SkillPlaces {
  /** The workspace root. */
  root: string;
  /** The user's home. Default: none of the user's skills are read. */
  home?: string;
  /** False where the folder is not trusted: none of its skills is read. */
  workspaceAllowed: boolean;
}

export interface FoundSkills {
  skills: SkillDefinition[];
  /** Files not read or not used, and names used twice, each with why. */
  problems: string[];
}

export async function findSkills(places: SkillPlaces): Promise<FoundSkills> {
  const found: FoundSkills = { skills: [], problems: [] };
  const add = (batch: FoundSkills) => {
    for (const skill of batch.skills) {
      const earlier = found.skills.find((each) => each.name === skill.name);
      if (earlier) found.problems.push(`${skill.label} was not used: the skill "${skill.name}" of ${earlier.label} comes first`);
      else found.skills.push(skill);
    }
    found.problems.push(...batch.problems);
  };
  if (places.workspaceAllowed) {
    for (const folder of workspaceSkillFolders) add(await readSkillFolder(places.root, folder, 'workspace'));
  }
  if (places.home !== undefined) add(await readSkillFolder(places.home, userSkillFolder, 'user'));
  return found;
}

/** Every `<name>/SKILL.md` under `folder` of `base` (the workspace, or the home). */
export async function readSkillFolder(base: string, folder: string, scope: SkillScope): Promise<FoundSkills> {
  const reader =
    scope === 'workspace'
      ? new ConfinedFileReader(base)
      : new ConfinedFileReader(base, { folderName: 'your home folder', refuseLinksToIgnored: false });
  const prefix = scope === 'workspace' ? '' : '~/';
  const names = await skillFolderNames(base, folder);
  const result: FoundSkills = { skills: [], problems: [] };
  if (names.length > skillLimits.perFolder)
    result.problems.push(`${prefix}${folder} has ${names.length} skills: only the first ${skillLimits.perFolder} (by name) are read`);
  for (const folderName of names.slice(0, skillLimits.perFolder)) {
    const relative = `${folder}/${folderName}/SKILL.md`;
    const label = `${prefix}${relative}`;
    const outcome = await reader.read(relative, skillLimits.fileBytes);
    if (outcome === undefined) continue;
    if ('refused' in outcome) {
      result.problems.push(notReadProblem(label, outcome.refused));
      continue;
    }
    const digest = `sha256:${createHash('sha256').update(outcome.read.text).digest('hex')}`;
    const parsed = parseSkillFile(outcome.read.text, {
      folder: `${folder}/${folderName}`,
      folderName,
      label,
      scope,
      digest,
      cut: outcome.read.cut,
    });
    if ('problem' in parsed) result.problems.push(parsed.problem);
    else result.skills.push(parsed.skill);
  }
  return result;
}

/** The sub-folders of a skills folder, sorted; none when it is missing. A name that is not a skill's is skipped. */
async function skillFolderNames(base: string, folder: string): Promise<string[]> {
  const entries = await readdir(path.join(base, ...folder.split('/')), { withFileTypes: true }).catch(() => []);
  // A link to a folder is listed too: the confined reader judges where its SKILL.md really is.
  return entries
    .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
    .map((entry) => entry.name)
    .filter((name) => !name.startsWith('.'))
    .sort();
}
