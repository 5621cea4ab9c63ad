/**
 * How a command is started in an overlay view: `unshare` gives it a private mount namespace, a shell
 * mounts the overlay there and goes into it, then execs the command's own launch (the sandbox, or the
 * limited shell). Each `exec` keeps the process, so the command's pid, process group and mark are those
 * of the process `command-process.ts` spawned, and the mount vanishes with the namespace's last process:
 * nobody else ever sees it, and nothing is left mounted when the command is over.
 *
 * As root the namespace is a mount namespace alone (used where `nsenter` cannot join a kept one,
 * overlay-holder.ts). Otherwise (Linux 5.11 and later) it is a user
 * namespace where the user is root, which may mount an overlay there (`userxattr`: its own xattrs in the
 * user's namespace), and a second user namespace gives the user's own ids back before the command runs:
 * the command never runs as a root of any kind.
 */
import type { CommandLaunch } from '../sandbox/command-launch.js';

/** The programs and ids the wrapper uses, found when the overlay was detected. */
export interface OverlayTools {
  unshare: string;
  mount: string;
  /** True as root: no user namespace is needed to mount. */
  privileged: boolean;
  /** As root, where `nsenter` (with `--wdns`) and `umount` work: a namespace is kept per copy (overlay-holder.ts). */
  nsenter?: string;
  umount?: string;
  uid: number;
  gid: number;
}

/** The layers of one command's view. */
export interface OverlayMount {
  /** The read-only layers, highest first: the mask (hidden files, shadowed git settings), then the workspace. */
  lower: readonly string[];
  /** Where the proposals are written and the command's writes land. */
  upper: string;
  /** The overlay's own scratch folder (empty, on the upper layer's file system). */
  work: string;
  /** The mount point: the view the command sees. */
  view: string;
}

const mountScript = '"$1" -t overlay -o "$2" overlay "$3" && cd "$4" && shift 4 && exec "$@"';

/**
 * The mount's options. A path holding a character the option string gives a meaning (`,` `:` `\` `"`,
 * a control character) cannot be passed; such a workspace gets the git-made copy instead.
 */
export function overlayOptions(mount: OverlayMount, privileged: boolean): string {
  for (const path of [...mount.lower, mount.upper, mount.work]) {
    if (!overlayPathAllowed(path)) throw new Error(`the path ${JSON.stringify(path)} cannot be given to an overlay mount`);
  }
  // Copy-up copies whole files (no metacopy) and renamed folders are copied (no redirects), so the upper
  // layer holds plain files and whiteouts that are read back as they are. In a user namespace the kernel
  // allows neither, and `userxattr` is required.
  const flavour = privileged ? 'redirect_dir=off,metacopy=off,index=off' : 'userxattr';
  return `lowerdir=${mount.lower.join(':')},upperdir=${mount.upper},workdir=${mount.work},${flavour}`;
}

export function overlayPathAllowed(path: string): boolean {
  return !/[,:\\"]/.test(path) && ![...path].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
}

/** `launch`, run in `cwd` of the overlay `mount` (mounted first, in the command's own namespace). */
export function overlayLaunch(launch: CommandLaunch, tools: OverlayTools, mount: OverlayMount, cwd: string): CommandLaunch {
  const ownIds = tools.privileged ? [] : [tools.unshare, '--user', `--map-user=${tools.uid}`, `--map-group=${tools.gid}`, '--'];
  return {
    ...launch,
    file: tools.unshare,
    args: [
      ...privateMountShell(tools, mountScript, 'agent-team-overlay'),
      tools.mount,
      overlayOptions(mount, tools.privileged),
      mount.view,
      cwd,
      ...ownIds,
      launch.file,
      ...launch.args,
    ],
  };
}

/**
 * `unshare`'s arguments that run `script` (as `name`, its `$0`) under /bin/sh in a private mount namespace of
 * its own, inside a user namespace too when unprivileged: what every overlay mount is done in.
 */
export function privateMountShell(tools: OverlayTools, script: string, name: string): string[] {
  const namespaces = tools.privileged ? ['--mount'] : ['--user', '--map-root-user', '--mount'];
  return [...namespaces, '--propagation', 'private', '--', '/bin/sh', '-c', script, name];
}
