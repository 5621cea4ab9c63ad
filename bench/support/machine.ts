/** The machine a run happened on, for the JSON and the docs table. */
import * as os from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  /** The 1-minute load average when the run started: other work on the machine skews timings. */
  loadAverage: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    loadAverage: Math.round(os.loadavg()[0] * 100) / 100,
  };
}

export function describeMachine(machine: MachineInfo): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; load average ${machine.loadAverage} at the start`;
}
