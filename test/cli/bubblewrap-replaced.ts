/**
 * A machine whose bubblewrap is not the real one, played for a CLI test: the CLI runs in a mount namespace
 * of its own where `script` is bind-mounted over /usr/bin/bwrap (the system's own place, which is where
 * the sandbox is taken from: a bwrap on PATH is never used). Root only: making the namespace and the mount
 * needs it; `replacingBubblewrapNeedsRoot` says why a test is skipped elsewhere.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const canReplaceBubblewrap = process.platform === 'linux' && process.getuid?.() === 0;
export const replacingBubblewrapNeedsRoot = 'replacing /usr/bin/bwrap in a mount namespace needs root';

/** A bwrap that answers `--version` as 0.9.0 would and fails every sandbox as a container that forbids namespaces does. */
export const failingBubblewrap = 'if [ "$1" = --version ]; then echo "bubblewrap 0.9.0"; exit 0; fi\necho "bwrap: No permissions to create new namespace" >&2\nexit 1';

/** The `startCli` wrapper that runs the CLI with `body` (a shell script) as /usr/bin/bwrap; `dispose` removes the script. */
export async function bubblewrapReplacedBy(body: string): Promise<{ wrapper: string[]; dispose(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'agent-team-fake-bwrap-'));
  const script = path.join(folder, 'bwrap');
  await writeFile(script, `#!/bin/sh\n${body}\n`);
  await chmod(script, 0o755);
  const wrapper = ['/usr/bin/unshare', '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', 'mount --bind "$0" /usr/bin/bwrap && exec "$@"', script];
  return { wrapper, dispose: () => rm(folder, { recursive: true, force: true }) };
}
