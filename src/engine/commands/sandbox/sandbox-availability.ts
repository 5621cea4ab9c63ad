/**
 * Whether this machine can sandbox commands, found once by trying: bubblewrap may be installed and still
 * unable to start (a container that forbids namespaces, a kernel without unprivileged user namespaces),
 * so only a sandbox that really started counts. The reason is shown plainly where there is none.
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';

export type SandboxAvailability =
  | { available: true; mechanism: 'bubblewrap' | 'seatbelt'; executable: string }
  | { available: false; reason: string };

/** How long the probe may take before the sandbox is judged unusable. */
const probeTimeoutMs = 10_000;

export async function detectSandbox(environment: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): Promise<SandboxAvailability> {
  if (platform === 'darwin') {
    const executable = '/usr/bin/sandbox-exec';
    return (await isExecutable(executable)) ? { available: true, mechanism: 'seatbelt', executable } : { available: false, reason: 'macOS without /usr/bin/sandbox-exec' };
  }
  if (platform !== 'linux') return { available: false, reason: `no OS sandbox is supported on ${platform === 'win32' ? 'Windows' : platform}` };
  const executable = await findOnPath('bwrap', environment.PATH ?? '');
  if (!executable) return { available: false, reason: "bubblewrap (bwrap) is not installed (Debian and Ubuntu: the package 'bubblewrap')" };
  const failure = await probe(executable);
  return failure === undefined ? { available: true, mechanism: 'bubblewrap', executable } : { available: false, reason: `bubblewrap cannot start a sandbox here: ${failure}` };
}

/** Runs an empty sandbox of the shape commands get; undefined when it worked, else why not. */
function probe(executable: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(executable, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--new-session', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2_000) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), probeTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : stderr.trim().split('\n')[0] || (signal ? `ended by ${signal}` : `exit ${code}`));
    });
  });
}

export async function findOnPath(name: string, searchPath: string): Promise<string | undefined> {
  for (const folder of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}
