/**
 * The policy as bubblewrap arguments (Linux). Mounts apply in order, so the order carries the policy:
 * the whole system read-only, fresh /dev and /proc (the new PID namespace's: the parent's processes and
 * their environments are not there), a private /tmp, empty folders over what is hidden, then, parents
 * first, what is read back and the scratch copy writable. `--unshare-all` gives the command its own PID,
 * network, IPC, UTS and cgroup namespaces; bubblewrap stays PID 1 there, so when the command's shell
 * exits every process it left (`setsid -f`, a double fork, `nohup … &`) dies with the namespace.
 */
import path from 'node:path';
import { isInside, type SandboxPolicy } from './sandbox-policy.js';

export function bubblewrapArguments(policy: SandboxPolicy, command: readonly string[]): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all'];
  if (policy.network) args.push('--share-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  // What /tmp's fresh tmpfs already hides needs no mount of its own.
  for (const folder of byDepth(policy.hidden).filter((folder) => !isInside(folder, '/tmp'))) args.push('--tmpfs', folder);
  const binds = [...policy.readOnly.map((folder) => ({ folder, writable: false })), ...policy.writable.map((folder) => ({ folder, writable: true }))];
  binds.sort((a, b) => depth(a.folder) - depth(b.folder));
  for (const bind of binds) args.push(bind.writable ? '--bind' : '--ro-bind', bind.folder, bind.folder);
  // After the binds: a credential file inside a folder read back (~/.cargo/credentials.toml) stays hidden.
  for (const file of policy.hiddenFiles ?? []) args.push('--ro-bind', '/dev/null', file);
  args.push('--dir', policy.home, '--chdir', policy.cwd, '--', ...command);
  return args;
}

function byDepth(folders: readonly string[]): string[] {
  return [...folders].sort((a, b) => depth(a) - depth(b));
}

function depth(folder: string): number {
  return path.normalize(folder).split('/').filter((part) => part !== '').length;
}
