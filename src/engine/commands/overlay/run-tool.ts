/**
 * Runs one short system program for the overlay (mknod, unshare with mount): its stdout when it exits 0,
 * else an error with the end of its stderr. Bounded in time, so a wedged mount never hangs a command.
 */
import { programEnvironment, startProcess } from '../../process-launcher.js';

/** How long one of these programs may take: they do a mount or a few mknods, in milliseconds. */
const toolTimeoutMs = 10_000;

/** `environment`: its whole environment. Default: the base every program needs (programEnvironment). */
export function runTool(
  file: string,
  args: readonly string[],
  options: { cwd?: string; environment?: Record<string, string | undefined> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = startProcess(file, args, {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      environment: options.environment ?? programEnvironment(),
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4_000) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), toolTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else
        reject(
          new Error(
            `${file} failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-2).join(' ').slice(0, 500) || 'no message'}`,
          ),
        );
    });
  });
}
