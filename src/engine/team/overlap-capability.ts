/**
 * Tells a parent, at its next turn, when a subagent that ended proposed changes to a file another task
 * of the run also changes, and whether the two fit together (overlap-note.ts): so a coordinator that ran
 * two editors on one file learns it, and whether it must sequence them, before it answers. A background
 * task's notice carries only its answer; this is how its proposals' overlaps reach the parent. Each
 * overlap is told once, and again only when what it says changes.
 */
import type { Capability } from '../capabilities/capability.js';
import type { TaskSnapshot } from '../tasks/types.js';
import { isTerminal } from '../tasks/types.js';
import { describeOverlaps } from '../changes/overlap-note.js';
import type { ChangeSetRegistry } from '../changes/registry.js';

export interface OverlapHost {
  changes: ChangeSetRegistry;
  /** The tasks `taskId` started. */
  children(taskId: string): readonly TaskSnapshot[];
}

export function overlapCapability(host: OverlapHost): Capability {
  return {
    name: 'overlaps',
    grant(task) {
      const told = new Map<string, string>();
      return {
        takeNotices: () => {
          const notes: string[] = [];
          for (const child of host.children(task.taskId)) {
            if (!isTerminal(child.status)) continue;
            for (const path of host.changes.get(child.id)?.openPaths() ?? []) {
              const overlap = describeOverlaps(host.changes, child.id, path);
              const key = `${child.id}\0${path}`;
              if (overlap === '' || told.get(key) === overlap) continue;
              told.set(key, overlap);
              notes.push(`task ${child.id}'s proposal for ${path}${overlap}.`);
            }
          }
          if (notes.length === 0) return [];
          return [
            `Proposals that change the same file: ${notes.join(' ')} Where they conflict, only one side can be applied: give the file to one task at a time (start the next after the first ends, telling it of the first's change).`,
          ];
        },
      };
    },
  };
}
