/**
 * Whether a process still exists, for files a process leaves behind that name it (a scratch copy's folder,
 * a run's lock): signal 0 checks without touching it; EPERM means it exists, as another user.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
