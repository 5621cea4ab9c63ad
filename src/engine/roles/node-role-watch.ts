import { type FSWatcher, statSync, watch } from 'node:fs';
import path from 'node:path';
import { roleFileLocations } from './role-file-locations.js';
import { type RoleWatch } from './role-file-source.js';

interface ActiveWatcher {
  watcher: FSWatcher;
  /** The watched directory's inode: a directory deleted and created again needs a new watcher. */
  inode: number;
}

/**
 * Watches the three role directories under `root` with `fs.watch`. A directory that does not exist yet is
 * covered by watching its parent for the name to appear (the workspace root for `.claude`, `.claude` for
 * `agents`), so creating `.claude/agents/x.md` from nothing is noticed too. Not recursive, so a large
 * workspace costs a handful of watchers, not one per folder.
 */
export function watchRoleDirectories(root: string): RoleWatch {
  const plan = watchPlan();
  return (onChange) => {
    const active = new Map<string, ActiveWatcher>();
    let stopped = false;

    const close = (directory: string) => {
      active.get(directory)?.watcher.close();
      active.delete(directory);
    };

    // Brings the watchers in line with the directories that exist now. Parents come before children in
    // the plan, so a child created while this runs is seen either by the check or by its parent's watcher.
    const sync = () => {
      for (const [directory, interesting] of plan) {
        const absolute = path.join(root, ...directory.split('/').filter((part) => part !== ''));
        const inode = stopped ? undefined : directoryInode(absolute);
        const current = active.get(directory);
        if (current && current.inode === inode) continue;
        close(directory);
        if (inode === undefined) continue;
        try {
          const watcher = watch(absolute, (_event, fileName) => {
            const name = fileName?.toString();
            if (interesting !== 'any' && name !== undefined && !interesting.has(name)) return;
            // A directory on the way to the role files appeared or went: follow it before reporting.
            if (interesting !== 'any') sync();
            onChange();
          });
          // A watched directory that is deleted may error; its parent's watcher notices and syncs.
          watcher.on('error', () => {
            if (active.get(directory)?.watcher === watcher) close(directory);
            else watcher.close();
          });
          active.set(directory, { watcher, inode });
        } catch {
          // It vanished between the check and the watch; its parent's watcher reports that.
        }
      }
    };

    sync();
    return () => {
      stopped = true;
      sync();
    };
  };
}

/** Each directory to watch (relative, '' for the root) and the entry names in it that matter. */
function watchPlan(): Map<string, ReadonlySet<string> | 'any'> {
  const plan = new Map<string, Set<string> | 'any'>();
  for (const location of roleFileLocations) {
    const parts = location.directory.split('/');
    for (let depth = 0; depth < parts.length; depth++) {
      const parent = parts.slice(0, depth).join('/');
      const entries = plan.get(parent);
      const names = entries instanceof Set ? entries : new Set<string>();
      names.add(parts[depth]);
      plan.set(parent, names);
    }
    plan.set(location.directory, 'any');
  }
  return plan;
}

function directoryInode(absolutePath: string): number | undefined {
  try {
    const stats = statSync(absolutePath);
    return stats.isDirectory() ? stats.ino : undefined;
  } catch {
    return undefined;
  }
}
