/**
 * Without a sandbox, the processes a command started are found by a mark in their environment: each
 * command gets a variable with a value of its own, which its children inherit whatever they do to their
 * process group or session (`setsid -f`, a double fork, `nohup … &` all keep it). When the command ends,
 * every process of this user that carries the mark is killed, until none is left. Linux only (it reads
 * /proc); a process that rewrites its own environment escapes it, which docs/security.md says.
 */
import { readFile, readdir } from 'node:fs/promises';

/** The variable that carries the mark. */
export const commandMarkVariable = 'AGENT_TEAM_COMMAND';

/** Rounds of looking: a process may fork while the previous round kills. */
const maximumRounds = 5;

export async function killMarkedProcesses(mark: string, platform: NodeJS.Platform = process.platform): Promise<number> {
  if (platform !== 'linux') return 0;
  const needle = Buffer.from(`\0${commandMarkVariable}=${mark}\0`);
  const first = Buffer.from(`${commandMarkVariable}=${mark}\0`);
  let killed = 0;
  for (let round = 0; round < maximumRounds; round++) {
    const marked = await markedProcesses(needle, first);
    if (marked.length === 0) break;
    for (const pid of marked) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // Gone already, or not ours.
      }
    }
  }
  return killed;
}

async function markedProcesses(needle: Buffer, first: Buffer): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: number[] = [];
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
      .map(async (entry) => {
        const environment = await readFile(`/proc/${entry}/environ`).catch(() => undefined);
        if (environment && (environment.includes(needle) || environment.subarray(0, first.length).equals(first))) found.push(Number(entry));
      }),
  );
  return found;
}
