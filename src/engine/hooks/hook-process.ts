/**
 * Runs one hook command the way `Bash` runs an agent's: in the scratch copy of the task's tree with the
 * proposals the task sees applied (a hook checks or formats what the agent proposes, never the user's
 * files), in the OS sandbox where there is one, with its event's JSON on stdin. The user's hook folders
 * (`~/.claude/hooks`) are readable inside the sandbox although the home is hidden: user-level hooks live
 * there. The files a hook changed in the copy are read back for whoever wants them (a formatter's output).
 * A hook gets the network only when every command does (command-network.ts): no command pattern names it.
 */
import path from 'node:path';
import { systemClock } from '../clock.js';
import { errorMessage } from '../errors.js';
import { readBounded } from '../workspace/bounded-read.js';
import type { CommandHost } from '../commands/command-host.js';
import { networkAllowed } from '../commands/command-network.js';
import { runCommandProcess } from '../commands/command-process.js';
import { launchInCopy } from '../commands/copy-launch.js';
import type { ProposedFile } from '../file-tools/task-tools.js';
import type { HookDefinition } from './hook-config.js';
import { userHookFolders } from './hook-sources.js';

/** Ends of a hook's output kept: a decision's JSON or a reason is short; garbage is cut where it enters. */
export const hookStdoutBytes = 64 * 1024;
export const hookStderrBytes = 16 * 1024;
/** A file a hook changed is read back only up to this size (a formatted source file is far smaller). */
const maxChangedFileBytes = 1024 * 1024;

export interface HookRunRequest {
  hook: HookDefinition;
  /** The event's JSON, without `cwd` (the copy's folder, added here). */
  input: Record<string, unknown>;
  rootId: string;
  /** The files as the task sees them, written into the copy first. */
  proposals(): Promise<ProposedFile[]>;
  signal: AbortSignal;
  /** Read back what the hook changed in the copy. Default false. */
  collectChanges?: boolean;
}

/** A file the hook changed: its new text, or undefined when it was deleted or is not text. */
export interface HookChangedFile {
  path: string;
  content: string | undefined;
}

export interface HookRunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** True when the start of stdout was dropped (it was longer than `hookStdoutBytes`). */
  stdoutCut: boolean;
  durationMs: number;
  /** Why it was ended early, if it was. */
  ended?: 'timeout' | 'stopped';
  /** Why it could not run at all (no scratch copy, the shell did not start). */
  error?: string;
  changed?: HookChangedFile[];
}

export interface HookRunner {
  run(request: HookRunRequest): Promise<HookRunResult>;
}

export function commandHookRunner(host: CommandHost): HookRunner {
  return { run: (request) => runHook(host, request) };
}

async function runHook(host: CommandHost, request: HookRunRequest): Promise<HookRunResult> {
  const clock = host.clock ?? systemClock;
  const started = clock.now();
  const failed = (error: unknown): HookRunResult => ({
    exitCode: null,
    stdout: '',
    stderr: '',
    stdoutCut: false,
    durationMs: clock.now() - started,
    error: errorMessage(error),
  });
  const refusal = host.refusal();
  if (refusal) return failed(refusal);
  let copy;
  try {
    copy = await host.copies.acquire(request.rootId);
  } catch (error) {
    return failed(error);
  }
  let broken = false;
  try {
    await copy.prepare(await request.proposals(), request.signal).catch((error: unknown) => {
      broken = true;
      throw error;
    });
    const state = await host.sandbox();
    // A hook is the repository's program, not a command an agent asked for: no network pattern names it.
    const network = await networkAllowed(host.network, state, { kind: 'hook' });
    const hookFolders = userHookFolders.map((folder) => path.join(host.userHome, folder));
    const launch = await launchInCopy({
      command: request.hook.command,
      copy,
      // Claude Code's variable, so hooks written for it find their scripts: the project is the copy here.
      environment: { ...host.environment(), CLAUDE_PROJECT_DIR: copy.cwd, AGENT_TEAM_PROJECT_DIR: copy.cwd },
      host,
      state,
      network,
      extraReadOnly: hookFolders,
    });
    const result = await runCommandProcess({
      launch,
      cwd: copy.cwd,
      timeoutMs: request.hook.timeoutMs,
      signal: request.signal,
      clock,
      stdoutBytes: hookStdoutBytes,
      stderrBytes: hookStderrBytes,
      stdin: JSON.stringify({ ...request.input, cwd: copy.cwd }),
    });
    const ran: HookRunResult = {
      exitCode: result.exitCode,
      stdout: result.stdout.text,
      stderr: result.stderr.text,
      stdoutCut: result.stdout.droppedBytes > 0,
      durationMs: result.durationMs,
      ...(result.ended ? { ended: result.ended } : {}),
    };
    if (!request.collectChanges || result.ended) return ran;
    const changed = await copy.changedFiles(request.signal).catch(() => {
      broken = true;
      return [];
    });
    return { ...ran, changed: await Promise.all(changed.map((file) => readChanged(copy.changedFilePath(file), file))) };
  } catch (error) {
    return failed(error);
  } finally {
    host.copies.release(request.rootId, copy, { broken });
  }
}

/**
 * Only a regular file is read back, opened without following a link at its end and without waiting on a
 * FIFO (readBounded): a link the hook made could point at anything outside the copy, and a FIFO swapped in
 * after a check would hang the read. Text only, and only up to `maxChangedFileBytes`.
 */
async function readChanged(absolute: string, file: string): Promise<HookChangedFile> {
  const read = await readBounded(absolute, maxChangedFileBytes).catch(() => undefined);
  if (read === undefined || read.cut || read.text.includes('\0') || read.text.includes('\uFFFD')) return { path: file, content: undefined };
  return { path: file, content: read.text };
}
