/**
 * Checks a run's files against the commit the branch starts from, before anything is made: a file whose
 * content there is not what its proposal was made against (it changed since, or the working tree the
 * agent read was not committed) is a conflict, reported, and then nothing is committed; a file that
 * already has the proposed content is left out. Nothing is merged with what is not the run's: a wrong
 * merge in a commit is worse than a conflict the user resolves. Only two tasks' proposals for one file,
 * both made against HEAD, are merged, as the working-tree apply merges them (exact, three-way: a line
 * both changed is a conflict).
 */
import { computeHunks } from '../changes/hunks.js';
import { describeConflicts } from '../changes/merge-onto-disk.js';
import { mergeThreeWay } from '../changes/three-way.js';
import type { BranchFile } from './branch-files.js';
import type { Repository } from './branch-preflight.js';
import { failureText, type ProgramRunner } from './program-runner.js';

export interface BranchConflict {
  path: string;
  message: string;
}

export interface BranchWrite {
  /** The workspace path, as the run names it. */
  path: string;
  /** The same file in the repository (the workspace folder's prefix, then `path`). */
  repositoryPath: string;
  /** What the commit gets (the last proposal's content). */
  content: string;
  /** The content at the commit the branch starts from; null for a new file. */
  headContent: string | null;
  /** The file's mode there (`100755` stays executable); `100644` for a new file. */
  mode: string;
}

export interface BranchPlan {
  /** What to commit, per repository path. */
  writes: BranchWrite[];
  /** Files already as proposed at HEAD. */
  unchanged: string[];
  conflicts: BranchConflict[];
}

export async function planBranch(repository: Repository, files: readonly BranchFile[], run: ProgramRunner): Promise<BranchPlan> {
  // Per path, the content so far: HEAD's, then each proposal's in turn (a reviewer's edit stacked on a
  // refactorer's was made against the refactorer's content).
  const current = new Map<string, string | null>();
  const plan: BranchPlan = { writes: [], unchanged: [], conflicts: [] };
  const written = new Map<string, BranchWrite>();
  const atHead = new Map<string, { content: string | null; mode: string }>();
  // Paths HEAD could not give (a link, a folder): reported once, their later proposals left out.
  const unreadable = new Set<string>();
  for (const file of files) {
    const repositoryPath = `${repository.prefix}${file.path}`;
    if (file.target !== undefined) {
      plan.conflicts.push({
        path: file.path,
        message: `${file.path} was proposed through a symbolic link (to ${file.target}); a branch is never written through one. Apply it to the working tree instead.`,
      });
      continue;
    }
    if (unreadable.has(repositoryPath)) continue;
    if (!current.has(repositoryPath)) {
      const head = await headContent(repository, repositoryPath, run);
      if ('problem' in head) {
        plan.conflicts.push({ path: file.path, message: head.problem });
        unreadable.add(repositoryPath);
        continue;
      }
      current.set(repositoryPath, head.content);
      atHead.set(repositoryPath, head);
    }
    const now = current.get(repositoryPath) ?? null;
    if (now === file.content) {
      if (!written.has(repositoryPath)) plan.unchanged.push(file.path);
      continue;
    }
    let content = file.content;
    if (now !== file.baseContent) {
      const earlier = written.get(repositoryPath);
      const merged = earlier && file.baseContent === atHead.get(repositoryPath)?.content ? mergeOntoEarlier(file, now) : undefined;
      if (typeof merged !== 'string') {
        plan.conflicts.push({ path: file.path, message: merged?.conflict ?? conflictMessage(file, now, repository) });
        continue;
      }
      content = merged;
    }
    current.set(repositoryPath, content);
    const head = atHead.get(repositoryPath) ?? { content: null, mode: '100644' };
    written.set(repositoryPath, { path: file.path, repositoryPath, content, headContent: head.content, mode: head.mode });
  }
  plan.writes = [...written.values()];
  return plan;
}

/** `file`'s proposal merged onto what earlier proposals of the run made of HEAD's content, or the conflict. */
function mergeOntoEarlier(file: BranchFile, now: string | null): string | { conflict: string } | undefined {
  if (file.baseContent === null || now === null) return undefined;
  const merge = mergeThreeWay(file.path, file.baseContent, now, computeHunks(file.path, file.baseContent, file.content));
  if (merge.conflicts.length === 0) return merge.resolved('proposed');
  return {
    conflict: `${file.path}: ${describeConflicts(merge.conflicts)} changed by task ${file.taskId} and by an earlier task of the run; nothing was committed. Settle it in the working tree: agent-team apply <run> --show, then --take <taskId>.`,
  };
}

function conflictMessage(file: BranchFile, now: string | null, repository: Repository): string {
  const at = `at ${repository.currentBranch ?? 'HEAD'} (${repository.headCommit.slice(0, 12)})`;
  if (file.baseContent === null) return `${file.path} was proposed as a new file, but it exists ${at}; nothing was committed.`;
  if (now === null)
    return `${file.path} does not exist ${at}: the proposal was made against a file that is not committed (or was deleted since); nothing was committed.`;
  return `${file.path} ${at} is not the content the proposal was made against (it changed since, or the agent read uncommitted changes); nothing was committed.`;
}

async function headContent(
  repository: Repository,
  repositoryPath: string,
  run: ProgramRunner,
): Promise<{ content: string | null; mode: string } | { problem: string }> {
  const listed = await run('git', ['--literal-pathspecs', 'ls-tree', '-z', repository.headCommit, '--', repositoryPath], {
    cwd: repository.root,
  });
  if (listed.exitCode !== 0) return { problem: `${repositoryPath} could not be read at HEAD: ${failureText(listed)}` };
  const entry = listed.stdout.split('\0').find((line) => line.endsWith(`\t${repositoryPath}`));
  if (!entry) return { content: null, mode: '100644' };
  const [mode, type, objectId] = entry.slice(0, entry.indexOf('\t')).split(' ');
  if (type !== 'blob' || mode === '120000')
    return {
      problem: `${repositoryPath} is ${mode === '120000' ? 'a symbolic link' : `a ${type ?? 'non-file'}`} at HEAD; a branch writes only regular files. Apply it to the working tree instead.`,
    };
  const blob = await run('git', ['cat-file', 'blob', objectId ?? ''], { cwd: repository.root });
  if (blob.exitCode !== 0) return { problem: `${repositoryPath} could not be read at HEAD: ${failureText(blob)}` };
  return { content: blob.stdout, mode: mode === '100755' ? '100755' : '100644' };
}
