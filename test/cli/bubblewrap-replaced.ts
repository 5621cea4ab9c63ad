/**
 * A machine whose bubblewrap is not the real one, played for a CLI test: the CLI runs in a mount namespace
 * of its own where `script` is bind-mounted over /usr/bin/bwrap (the system's own place, which is where
 * the sandbox is taken from: a bwrap on PATH is never used).
 *
 * As root the namespace is a plain mount namespace. As an ordinary user (scripts/test-as-user.sh) it is a
 * user namespace that maps only this user, with its capabilities given up before the CLI starts: the CLI
 * runs as the same user, without privileges. There root's files show as owned by the overflow user
 * (65534), so the CLI refuses /usr/bin's programs for that reason rather than for the replaced bwrap's
 * failure: either way there is no sandbox, which is what such a test is about. `sandboxRefusalPattern`
 * matches both reasons.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const asRoot = process.getuid?.() === 0;

/** An ordinary user may make a user namespace here (most Linux kernels allow it; some distributions do not). */
const userNamespaces =
  process.platform === 'linux' && !asRoot && spawnSync('/usr/bin/unshare', ['--user', '--map-current-user', 'true']).status === 0;

export const canReplaceBubblewrap = process.platform === 'linux' && (asRoot || userNamespaces);
export const replacingBubblewrapNeedsRoot = 'replacing /usr/bin/bwrap needs root or user namespaces';

/** A bwrap that answers `--version` as 0.9.0 would and fails every sandbox as a container that forbids namespaces does. */
export const failingBubblewrap =
  'if [ "$1" = --version ]; then echo "bubblewrap 0.9.0"; exit 0; fi\necho "bwrap: No permissions to create new namespace" >&2\nexit 1';

/** Why the CLI found no sandbox under `bubblewrapReplacedBy(failingBubblewrap)`: the bwrap's failure (root), or /usr/bin's owner as seen from a user namespace. */
export const sandboxRefusalPattern =
  /bubblewrap cannot start a sandbox here: bwrap: No permissions to create new namespace|bubblewrap cannot be trusted: \/usr\/bin\/bwrap is not used: \/\S* belongs to another user \(uid 65534\)/;

/** The `startCli` wrapper that runs the CLI with `body` (a shell script) as /usr/bin/bwrap; `dispose` removes the script. */
export async function bubblewrapReplacedBy(body: string): Promise<{ wrapper: string[]; dispose(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'agent-team-fake-bwrap-'));
  const script = path.join(folder, 'bwrap');
  await writeFile(script, `#!/bin/sh\n${body}\n`);
  await chmod(script, 0o755);
  const namespace = asRoot ? ['--mount'] : ['--user', '--map-current-user', '--keep-caps', '--mount'];
  // An ordinary user's CLI gives up the namespace's capabilities (kept only to mount) before it starts.
  const start = asRoot ? 'exec "$@"' : 'exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"';
  const wrapper = [
    '/usr/bin/unshare',
    ...namespace,
    '--propagation',
    'private',
    '--',
    '/bin/sh',
    '-c',
    `mount --bind "$0" /usr/bin/bwrap && ${start}`,
    script,
  ];
  return { wrapper, dispose: () => rm(folder, { recursive: true, force: true }) };
}
