/**
 * Whether this machine can sandbox commands, found once by trying: bubblewrap may be installed and still
 * unable to start (a container that forbids namespaces, a kernel without unprivileged user namespaces),
 * so only a sandbox that really started, with the very arguments commands get, counts. bubblewrap is taken
 * from the system's folders only, never from PATH (trusted-program.ts), and must be recent enough for every
 * flag used (`minimumBubblewrapVersion`). The reason is shown plainly where there is none.
 */
import { access, constants } from 'node:fs/promises';
import { programEnvironment, startProcess } from '../../process-launcher.js';
import { bubblewrapArguments, minimumBubblewrapVersion } from './bubblewrap.js';
import { sandboxHome } from './sandbox-policy.js';
import { findTrustedProgram, trustedProgramFolders } from './trusted-program.js';

export type SandboxAvailability =
  { available: true; mechanism: 'bubblewrap' | 'seatbelt'; executable: string } | { available: false; reason: string };

/** How long the probe may take before the sandbox is judged unusable. */
const probeTimeoutMs = 10_000;

/**
 * `environment` is no longer searched (PATH is not where bubblewrap is taken from); it stays for the callers
 * that pass it. `folders`: where bubblewrap is looked for. Default: trustedProgramFolders.
 */
export async function detectSandbox(
  _environment: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  folders: readonly string[] = trustedProgramFolders,
): Promise<SandboxAvailability> {
  if (platform === 'darwin') {
    const executable = '/usr/bin/sandbox-exec';
    return (await isExecutable(executable))
      ? { available: true, mechanism: 'seatbelt', executable }
      : { available: false, reason: 'macOS without /usr/bin/sandbox-exec' };
  }
  if (platform !== 'linux')
    return { available: false, reason: `no OS sandbox is supported on ${platform === 'win32' ? 'Windows' : platform}` };
  const found = await findTrustedProgram('bwrap', folders);
  if ('reason' in found) {
    return {
      available: false,
      reason: found.missing
        ? `bubblewrap (bwrap) is not installed in ${folders.join(', ')} (Debian and Ubuntu: the package 'bubblewrap')`
        : `bubblewrap cannot be trusted: ${found.reason}`,
    };
  }
  const executable = found.path;
  const version = await run(executable, ['--version']);
  const tooOld = version.failure ?? versionFailure(version.stdout);
  if (tooOld !== undefined) return { available: false, reason: `bubblewrap at ${executable} cannot be used: ${tooOld}` };
  const probe = await run(
    executable,
    bubblewrapArguments({ writable: [], readOnly: [], hidden: [], network: false, cwd: '/', home: sandboxHome }, [
      '/bin/sh',
      '-c',
      'exit 0',
    ]),
  );
  return probe.failure === undefined
    ? { available: true, mechanism: 'bubblewrap', executable }
    : { available: false, reason: `bubblewrap cannot start a sandbox here: ${probe.failure}` };
}

/** Why `bwrap --version`'s output is not good enough, or undefined when it is. */
export function versionFailure(output: string): string | undefined {
  const match = /^bubblewrap (\d+)\.(\d+)\.(\d+)/m.exec(output);
  if (!match)
    return `its version could not be read (${JSON.stringify(output.trim().slice(0, 80))}); ${minimumBubblewrapVersion} or later is needed`;
  const found = match.slice(1, 4).map(Number);
  const needed = minimumBubblewrapVersion.split('.').map(Number);
  const order = found.map((part, index) => part - needed[index]!).find((difference) => difference !== 0) ?? 0;
  return order < 0
    ? `it is version ${found.join('.')}, and ${minimumBubblewrapVersion} or later is needed (for --disable-userns, --size and --cap-drop)`
    : undefined;
}

/** Runs `file` briefly: its stdout, or why it failed (the first line of its stderr). */
function run(file: string, args: readonly string[]): Promise<{ stdout: string; failure?: string }> {
  return new Promise((resolve) => {
    const child = startProcess(file, args, { cwd: '/', environment: programEnvironment() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 2_000) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2_000) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), probeTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ stdout, failure: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve(
        code === 0 ? { stdout } : { stdout, failure: stderr.trim().split('\n')[0] || (signal ? `ended by ${signal}` : `exit ${code}`) },
      );
    });
  });
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}
