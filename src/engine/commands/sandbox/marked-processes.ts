/**
 * The processes a command started are found by a mark in their environment: each command gets a variable
 * with a value of its own, which its children inherit whatever they do to their process group or session
 * (`setsid -f`, a double fork, `nohup … &` all keep it). When the command ends, every process of this user
 * that carries the mark is killed, and the search repeats until none is left: a killed process stays in
 * /proc, environment and all, until the kernel has finished tearing it down, so "signalled" is not yet
 * "gone". Linux only (it reads /proc); a process that rewrites its own environment escapes it, which
 * docs/security.md says. In the sandbox the PID namespace ends them anyway; the mark is the second line.
 */
import { readFile, readdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** The variable that carries the mark. */
export const commandMarkVariable = 'AGENT_TEAM_COMMAND';

/**
 * Rounds of looking, a few milliseconds apart: a process may fork while the previous round kills, and a
 * killed one takes a moment to leave /proc. The kernel's moment, not the program's: real time, no clock.
 */
const maximumRounds = 200;
const roundGapMs = 5;

export async function killMarkedProcesses(mark: string, platform: NodeJS.Platform = process.platform): Promise<number> {
  if (platform !== 'linux') return 0;
  const needle = Buffer.from(`\0${commandMarkVariable}=${mark}\0`);
  const first = Buffer.from(`${commandMarkVariable}=${mark}\0`);
  const killed = new Set<number>();
  for (let round = 0; round < maximumRounds; round++) {
    if (round > 0) await delay(roundGapMs);
    const marked = await markedProcesses(needle, first);
    if (marked.length === 0) break;
    for (const pid of marked) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // Gone already, or not ours.
      }
    }
  }
  return killed.size;
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
