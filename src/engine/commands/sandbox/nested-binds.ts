/**
 * Binds that add nothing: a folder bound the same way (read-only in read-only, writable in writable) as
 * the nearest bound folder it lies in already shows inside exactly what its own bind would, since
 * bubblewrap's binds are recursive (the folders and mounts below come along, remounted the same way) and
 * every bind comes after the empty folders that hide (bubblewrap.ts), so nothing hidden lies between the
 * two. Each bind costs bubblewrap two mounts and a read of the mount table (B13); a toolchain's `shims`
 * inside its bound root (pyenv's, rbenv's) is the usual case. Kept: a bind of the other kind (a writable
 * folder in a read-only one, or the reverse, changes what may be written), and any whose path holds a link
 * (its own bind would show where the link leads, the parent's the link itself), judged by `realPath`.
 */
import { isInside } from './sandbox-policy.js';

export interface Bind {
  folder: string;
  writable: boolean;
}

/**
 * `binds` without those a bind before them already shows, in their order (parents first, as bubblewrap
 * mounts them). `realPath`: the folder's real path, undefined when it cannot be read (then it is kept).
 */
export function withoutNestedBinds(binds: readonly Bind[], realPath: (folder: string) => string | undefined): Bind[] {
  const kept: Bind[] = [];
  for (const bind of binds) {
    let nearest: Bind | undefined;
    for (const earlier of kept)
      if (earlier.folder !== bind.folder && isInside(bind.folder, earlier.folder) && (!nearest || isInside(earlier.folder, nearest.folder)))
        nearest = earlier;
    const redundant = nearest !== undefined && nearest.writable === bind.writable && realPath(bind.folder) === bind.folder;
    if (!redundant) kept.push(bind);
  }
  return kept;
}
