/**
 * A mount namespace kept for one copy, as root: a small shell started in it by `unshare` mounts each
 * command's overlay there when asked (one line of options in, `ok` out), so the mount is done before the
 * command is started, off its path, and the command joins the namespace with `nsenter` (one program
 * start, where a namespace of its own costs three: `unshare`, a shell, `mount`). Node reaches the view
 * through `/proc/<pid>/root`, to write proposals through it and to read it after the command. The shell
 * ends when its input closes: with the copy, or with this process, however it ends.
 *
 * Root only: another user would have to join the holder's user namespace too, where the command would
 * hold capabilities over its mounts; those commands get a namespace of their own (overlay-launch.ts).
 */
import { type ChildProcess, startProcess } from '../../process-launcher.js';
import type { CommandLaunch } from '../sandbox/command-launch.js';
import type { OverlayTools } from './overlay-launch.js';

/** Each line: lazily unmount the previous view (a process left in it keeps it alive, not in the way), mount the next. */
const holderScript =
  'while IFS= read -r options; do "$3" -l "$1" 2>/dev/null; if "$2" -t overlay -o "$options" overlay "$1"; then echo ok; else echo failed; fi; done';

export class OverlayHolder {
  private output = '';
  private errors = '';
  private waiting: Array<(line: string | undefined) => void> = [];
  private queue: Promise<unknown> = Promise.resolve();
  private ended = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly nsenter: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      for (let newline = this.output.indexOf('\n'); newline !== -1; newline = this.output.indexOf('\n')) {
        const line = this.output.slice(0, newline);
        this.output = this.output.slice(newline + 1);
        this.waiting.shift()?.(line);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.errors = (this.errors + chunk.toString('utf8')).slice(-2_000);
    });
    child.stdin?.on('error', () => undefined);
    const end = () => {
      this.ended = true;
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    };
    child.once('exit', end);
    child.once('error', end);
  }

  /** A holder whose view is `view`; undefined where these tools cannot keep one (not root, no nsenter). */
  static start(tools: OverlayTools, view: string): OverlayHolder | undefined {
    if (!tools.privileged || !tools.nsenter || !tools.umount) return undefined;
    // Slave propagation: mounts the host makes later still reach the commands; ours never leave.
    // Every program it runs is named by its full path: it needs nothing of this process's environment.
    const child = startProcess(
      tools.unshare,
      [
        '--mount',
        '--propagation',
        'slave',
        '--',
        '/bin/sh',
        '-c',
        holderScript,
        'agent-team-overlay-holder',
        view,
        tools.mount,
        tools.umount,
      ],
      { cwd: '/', environment: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, stdin: 'pipe' },
    );
    return new OverlayHolder(child, tools.nsenter);
  }

  get alive(): boolean {
    return !this.ended && this.child.exitCode === null && this.child.pid !== undefined;
  }

  /** Mounts an overlay with `options` on the view, in place of the one before. */
  mount(options: string): Promise<void> {
    const mounted = this.queue.then(async () => {
      if (!this.alive) throw new Error('the overlay holder has ended');
      const line = new Promise<string | undefined>((resolve) => this.waiting.push(resolve));
      this.child.stdin?.write(`${options}\n`);
      if ((await line) !== 'ok')
        throw new Error(`the overlay could not be mounted: ${this.errors.trim().split('\n').at(-1) ?? 'the holder ended'}`);
    });
    this.queue = mounted.catch(() => undefined);
    return mounted;
  }

  /** `path` as the holder's namespace sees it (the mounted view), from this process. */
  inside(path: string): string {
    return `/proc/${this.child.pid}/root${path}`;
  }

  /** `launch`, joining the holder's namespace in `cwd` (of the view). */
  launch(launch: CommandLaunch, cwd: string): CommandLaunch {
    // Checked as the launch is made: the holder is our child, so its pid cannot be taken by another
    // process before we have seen it end.
    if (!this.alive) throw new Error('the overlay holder has ended');
    return {
      ...launch,
      file: this.nsenter,
      args: ['--target', String(this.child.pid), '--mount', `--wdns=${cwd}`, '--', launch.file, ...launch.args],
    };
  }

  stop(): void {
    this.child.stdin?.end();
    if (this.alive) this.child.kill('SIGTERM');
  }
}
