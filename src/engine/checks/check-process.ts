/**
 * Runs one check in a scratch copy already brought to the wanted view, through the same launch as the
 * `Bash` tool: in the OS sandbox when there is one (the copy alone writable, the user's workspace and home
 * hidden, no network unless the user's network rules give it), as the leader of its own process group,
 * so a timeout or a stop ends every process it started.
 */
import { systemClock } from '../clock.js';
import type { CommandCopy } from '../commands/command-copy.js';
import type { CommandHost } from '../commands/command-host.js';
import { networkAllowed } from '../commands/command-network.js';
import { runCommandProcess } from '../commands/command-process.js';
import { launchInCopy } from '../commands/copy-launch.js';
import type { SandboxState } from '../commands/sandbox/sandbox-state.js';
import { redactSecrets } from '../secrets.js';
import type { CheckOutcome } from './check-outcome.js';
import { parseCheckOutput } from './output-parsers.js';
import { type CheckDefinition, checkOutputBytes, defaultCheckTimeoutSeconds } from './types.js';

/** The whole output parsed for names of failures (a runner's report is long); only its end is kept. */
const parsedOutputBytes = 512 * 1024;

export interface CheckProcessOptions {
  check: CheckDefinition;
  host: CommandHost;
  /** How commands run here; `unavailable` never reaches this (the service refuses first). */
  state: Exclude<SandboxState, { mode: 'unavailable' }>;
  copy: CommandCopy;
  signal: AbortSignal;
  /** The values to redact from the kept output (the configured keys). */
  secrets: readonly string[];
}

export async function runCheckProcess(options: CheckProcessOptions): Promise<CheckOutcome> {
  const { check, host, state, copy } = options;
  const network = await networkAllowed(host.network, state, { kind: 'agent-command', command: check.command });
  const timeoutSeconds = check.timeoutSeconds ?? defaultCheckTimeoutSeconds;
  const environment = { ...host.environment(), CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' };
  const launch = await launchInCopy({ command: check.command, copy, environment, host, state, network });
  const result = await runCommandProcess({
    launch,
    cwd: copy.cwd,
    timeoutMs: timeoutSeconds * 1000,
    signal: options.signal,
    clock: host.clock ?? systemClock,
    stdoutBytes: parsedOutputBytes,
    stderrBytes: parsedOutputBytes / 4,
  });
  const combined = redactSecrets([result.stdout.text, result.stderr.text].filter((text) => text.trim() !== '').join('\n'), options.secrets);
  const kept = tail(combined, checkOutputBytes);
  const base = { name: check.name, durationMs: result.durationMs, output: kept };
  if (result.ended === 'stopped') return { ...base, status: 'error', reason: 'stopped' };
  const parsed = parseCheckOutput(combined);
  const exit = result.exitCode !== null ? { exitCode: result.exitCode } : {};
  if (result.ended === 'timeout')
    return {
      ...base,
      ...exit,
      status: 'timed-out',
      reason: `timed out after ${timeoutSeconds} s (every process it started was ended)`,
      ...(parsed ? { parsed } : {}),
    };
  return { ...base, ...exit, status: result.exitCode === 0 ? 'passed' : 'failed', ...(parsed ? { parsed } : {}) };
}

/** The last `bytes` of `text`, cut at a line. */
function tail(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  const end = Buffer.from(text).subarray(-bytes).toString('utf8');
  const newline = end.indexOf('\n');
  return `… (the start is cut)\n${newline >= 0 ? end.slice(newline + 1) : end}`;
}
