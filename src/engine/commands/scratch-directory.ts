/**
 * Where scratch copies live: a directory only this user can enter. On a shared machine another local user
 * can make `/tmp/agent-team-scratch-<uid>` first (or a link by that name) to watch or swap what is written
 * there, so a place is used only once it is checked: a real directory (not a link), owned by our uid, open
 * to nobody else. In order:
 * 1. `$XDG_RUNTIME_DIR/agent-team-scratch`, when `XDG_RUNTIME_DIR` is set to a directory of ours that only
 *    we can enter (the per-user folder the login manager makes, `/run/user/<uid>`);
 * 2. `agent-team-scratch-<uid>` in the system's temporary directory (one name, so the copies a crashed run
 *    left behind are found and removed by the next);
 * 3. a squatted place is not an error: a fresh folder of our own is made with `mkdtemp` instead, written
 *    to and removed by this process alone, and nothing is written into the squatted one.
 */
import { chmod, lstat, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

export interface ScratchPlaceOptions {
  /** A directory the host chose (tests, the benchmark); checked like the others. Default: the places above. */
  preferred?: string;
  /** Where `XDG_RUNTIME_DIR` is read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The system's temporary directory. Default `os.tmpdir()`. */
  temporary?: string;
}

export interface ScratchPlace {
  path: string;
  /** True for a folder made fresh by this process (every shared place was squatted): removed when it is done. */
  fresh: boolean;
}

export async function privateScratchPlace(options: ScratchPlaceOptions = {}): Promise<ScratchPlace> {
  const temporary = options.temporary ?? tmpdir();
  const uid = process.getuid?.();
  for (const candidate of await candidates(options, temporary, uid)) {
    if (await claimPrivate(candidate, uid)) return { path: candidate, fresh: false };
  }
  return { path: await mkdtemp(join(temporary, `agent-team-scratch-${uid ?? 'user'}-`)), fresh: true };
}

async function candidates(options: ScratchPlaceOptions, temporary: string, uid: number | undefined): Promise<string[]> {
  if (options.preferred !== undefined) return [options.preferred];
  const runtime = (options.environment ?? process.env).XDG_RUNTIME_DIR;
  const runtimeOk = runtime !== undefined && isAbsolute(runtime) && (await privateDirectory(runtime, uid, false));
  return [...(runtimeOk ? [join(runtime, 'agent-team-scratch')] : []), join(temporary, `agent-team-scratch-${uid ?? 'user'}`)];
}

/**
 * Makes `directory` (mode 0700) or finds it, and says whether it is ours to use. One of ours that is open
 * to others (made by hand, or by an older version) is closed first.
 */
async function claimPrivate(directory: string, uid: number | undefined): Promise<boolean> {
  try {
    await mkdir(dirname(directory), { recursive: true, mode: 0o700 });
    await mkdir(directory, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  return privateDirectory(directory, uid, true);
}

/** True when `directory` is a directory (not a link) owned by `uid`, open to nobody else (after `close`). */
async function privateDirectory(directory: string, uid: number | undefined, close: boolean): Promise<boolean> {
  const info = await lstat(directory).catch(() => undefined);
  if (!info?.isDirectory() || (uid !== undefined && info.uid !== uid)) return false;
  if (process.platform === 'win32' || (info.mode & 0o077) === 0) return true;
  if (!close) return false;
  await chmod(directory, 0o700);
  return true;
}
