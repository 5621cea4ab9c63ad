/**
 * Whether commands can run in an overlay view here, found once per scratch directory by trying it: a
 * kernel may lack overlayfs, forbid namespaces (a container), or allow them only to root; `unshare` may be
 * too old to give the user's ids back. The probe is the launch commands get, on a tiny workspace in the
 * scratch directory (the upper layers' file system): a whiteout in the mask must hide a file, the file
 * beside it must show, and a write must land in the upper layer only. Where the sandbox is bubblewrap it
 * must also start inside that namespace, with the arguments commands get, since commands run in it there.
 * Anything else: the git-made copy.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../errors.js';
import { bubblewrapArguments } from '../sandbox/bubblewrap.js';
import { detectSandbox } from '../sandbox/sandbox-availability.js';
import { sandboxHome } from '../sandbox/sandbox-policy.js';
import { findTrustedProgram } from '../sandbox/trusted-program.js';
import { OverlayHolder } from './overlay-holder.js';
import { overlayLaunch, type OverlayMount, overlayOptions, overlayPathAllowed, type OverlayTools } from './overlay-launch.js';
import { runTool } from './run-tool.js';
import { makeWhiteouts } from './whiteouts.js';

export type OverlaySupport = { available: true; tools: OverlayTools } | { available: false; reason: string };

const found = new Map<string, Promise<OverlaySupport>>();

/** Whether overlays work with uppers in `directory` (which exists and is this user's): tried once per directory. */
export function overlaySupport(
  directory: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<OverlaySupport> {
  let support = found.get(directory);
  if (!support) {
    support = detect(directory, environment);
    found.set(directory, support);
  }
  return support;
}

async function detect(directory: string, environment: Readonly<Record<string, string | undefined>>): Promise<OverlaySupport> {
  if (process.platform !== 'linux') return { available: false, reason: 'overlays are Linux only' };
  // From the system's folders, never PATH: the command's launch starts with `unshare` (trusted-program.ts).
  const [unshare, mount] = await Promise.all([trustedPath('unshare'), trustedPath('mount')]);
  if (!unshare || !mount) return { available: false, reason: 'util-linux (unshare, mount) is not installed in the system folders' };
  if (!overlayPathAllowed(directory))
    return { available: false, reason: `the scratch directory's path cannot be given to an overlay mount` };
  const tools: OverlayTools = {
    unshare,
    mount,
    privileged: process.getuid?.() === 0,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
  };
  // Named like a copy (pid first): a crash mid-probe leaves what the next start removes.
  const probe = await mkdtemp(join(directory, `${process.pid}-overlay-probe-`));
  try {
    // Two steps of two tries side by side (each in its own folders): about half the wall time of one after
    // another (B9), the same tries. Both of a step end before the probe's folder can go. The held namespace
    // and the sandboxed try stand on the plain try's mask and lower layer.
    const [sandbox] = await bothEnded(detectSandbox(environment), tryOverlay(probe, tools, undefined));
    // A bubblewrap that cannot start anywhere here (a container) is no sandbox commands would use.
    const [held] = await bothEnded(
      heldNamespace(probe, tools),
      sandbox.available && sandbox.mechanism === 'bubblewrap' ? tryOverlay(probe, tools, sandbox.executable) : Promise.resolve(),
    );
    return { available: true, tools: { ...tools, ...held } };
  } catch (error) {
    return { available: false, reason: errorMessage(error) };
  } finally {
    await rm(probe, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** As root, `nsenter` and `umount` if a kept namespace works with them here (an older `nsenter` has no `--wdns`). */
async function heldNamespace(probe: string, tools: OverlayTools): Promise<Pick<OverlayTools, 'nsenter' | 'umount'>> {
  if (!tools.privileged) return {};
  const [nsenter, umount] = await Promise.all([trustedPath('nsenter'), trustedPath('umount')]);
  if (!nsenter || !umount) return {};
  const held = { ...tools, nsenter, umount };
  const mount: OverlayMount = {
    lower: [join(probe, 'mask'), join(probe, 'lower')],
    upper: join(probe, 'held-upper'),
    work: join(probe, 'held-work'),
    view: join(probe, 'held-view'),
  };
  await Promise.all([mount.upper, mount.work, mount.view].map((folder) => mkdir(folder)));
  const holder = OverlayHolder.start(held, mount.view);
  try {
    await holder?.mount(overlayOptions(mount, true));
    const launch = holder?.launch({ file: '/bin/sh', args: ['-c', 'test -f seen && echo written > made'], environment: {} }, mount.view);
    if (!launch) return {};
    await runTool(launch.file, launch.args, { cwd: '/', environment: { PATH: '/usr/bin:/bin' } });
    return (await readFile(join(mount.upper, 'made'), 'utf8').catch(() => undefined)) === 'written\n' ? { nsenter, umount } : {};
  } catch {
    return {};
  } finally {
    holder?.stop();
  }
}

async function tryOverlay(probe: string, tools: OverlayTools, bubblewrap: string | undefined): Promise<void> {
  const layer = (name: string) => join(probe, `${name}${bubblewrap ? '-sandboxed' : ''}`);
  const mount: OverlayMount = { lower: [layer('mask'), layer('lower')], upper: layer('upper'), work: layer('work'), view: layer('view') };
  await Promise.all([...mount.lower, mount.upper, mount.work, mount.view].map((folder) => mkdir(folder)));
  await Promise.all([writeFile(join(layer('lower'), 'seen'), 'seen\n'), writeFile(join(layer('lower'), 'hidden'), 'hidden\n')]);
  await makeWhiteouts([join(layer('mask'), 'hidden')]);
  const check = 'test -f seen && test ! -e hidden && echo written > made';
  const inner = bubblewrap
    ? {
        file: bubblewrap,
        args: bubblewrapArguments(
          { writable: [mount.view], readOnly: [], hidden: [], network: false, cwd: mount.view, home: sandboxHome },
          ['/bin/sh', '-c', check],
        ),
      }
    : { file: '/bin/sh', args: ['-c', check] };
  const launch = overlayLaunch({ ...inner, environment: {} }, tools, mount, mount.view);
  await runTool(launch.file, launch.args, { cwd: mount.view, environment: { PATH: '/usr/bin:/bin' } }).catch((error: unknown) => {
    throw new Error(`${bubblewrap ? 'bubblewrap in an overlay' : 'an overlay'} cannot be mounted here: ${errorMessage(error)}`);
  });
  const written = await readFile(join(mount.upper, 'made'), 'utf8').catch(() => undefined);
  if (written !== 'written\n') throw new Error('an overlay mounted here did not keep its writes in its upper layer');
}

/** Both results once both have ended; the first failure, if any, then. */
async function bothEnded<First, Second>(first: Promise<First>, second: Promise<Second>): Promise<[First, Second]> {
  const [one, two] = await Promise.allSettled([first, second]);
  if (one.status === 'rejected') throw one.reason;
  if (two.status === 'rejected') throw two.reason;
  return [one.value, two.value];
}

async function trustedPath(name: string): Promise<string | undefined> {
  const found = await findTrustedProgram(name);
  return 'path' in found ? found.path : undefined;
}
