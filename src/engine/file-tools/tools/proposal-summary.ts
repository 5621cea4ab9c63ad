import { computeHunks } from '../../changes/hunks.js';
import { type FileChangeSnapshot } from '../../changes/types.js';

/** What the model reads after an Edit or Write: what changed now, and where the file's proposal stands. */
export function describeProposal(what: string, path: string, before: string | null, proposal: FileChangeSnapshot | undefined): string {
  if (proposal === undefined) {
    return `${what} The file is now back to its original content, so no change to it is proposed any more.`;
  }
  const edit = computeHunks(path, before, proposal.proposedContent);
  const added = edit.reduce((sum, hunk) => sum + hunk.added, 0);
  const removed = edit.reduce((sum, hunk) => sum + hunk.removed, 0);
  const approval = proposal.requiresApproval ? ' This file is sensitive configuration: the user must approve it explicitly.' : '';
  const link = proposal.target === undefined ? '' : ` ${path} is a symbolic link: the change is to ${proposal.target}.`;
  return (
    `${what}${link} This edit: +${added} −${removed} lines; the file's proposal so far: +${proposal.added} −${proposal.removed}. ` +
    `It is proposed for review, not written to disk; your Read, Grep and Glob calls see it.${approval}`
  );
}
