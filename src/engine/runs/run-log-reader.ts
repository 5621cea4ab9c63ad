/**
 * Reads one run file back, line by line (never the whole history, never the whole file at once), into
 * what the hosts need: the tasks with their transcripts, each agent's conversation as last recorded, the
 * kept conversations and the proposals. A damaged line costs that line only: a line that is not JSON or
 * does not fit its record is skipped with a warning naming the file and the line, and a last line without
 * its newline (a crash mid-write) is skipped with a warning of its own. Records of a type this version
 * does not know (a newer version's) are ignored without a word.
 *
 * Each line's MAC is checked as it passes (run-log-signature.ts), skipped lines too: the contents say
 * whether the run is its user's own (`signature`), and of a signed run only verified lines are used.
 */
import path from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../errors.js';
import { openForReading } from './json-lines-file.js';
import { readLines } from './json-lines-reader.js';
import { type RunContents, RunContentsBuilder } from './run-contents.js';
import { ChainVerifier, type RunSignature } from './run-log-signature.js';
import {
  type RunRecord,
  type RunRecordType,
  linePrefixOf,
  maxLineBytes,
  proposalRecordTypes,
  runRecordSchema,
  runRecordTypes,
} from './run-log-records.js';

export type { RunContents } from './run-contents.js';

export interface ReadRunOptions {
  /** The most recent entries kept per task. Default: all. */
  maxTranscriptEntries?: number;
  /** The record types wanted; lines of the others are skipped unparsed where they can be told apart. Default: all. */
  only?: ReadonlySet<RunRecordType>;
  /** Only this task's transcript entries: the others' lines are skipped unparsed. Default: every task's. */
  task?: string;
  /** The run's key (run-log-signature.ts) to check its lines with; undefined: not checked (`signature` is `unchecked`). */
  verify?: { runKey: Buffer | undefined; problem?: string };
}

/** What a read learnt of the file's signing: for the writer, the MAC its next line chains from, at this size. */
export interface ReadSignature {
  signature: RunSignature;
  tail: string;
  bytes: number;
}

/** Undefined when the run has no file. Throws only when the file cannot be opened or read at all. */
export async function readRunFile(
  filePath: string,
  runId: string,
  options: ReadRunOptions,
  warn: (message: string) => void,
): Promise<(RunContents & { read: ReadSignature | undefined }) | undefined> {
  const handle = await openForReading(filePath);
  if (!handle) return undefined;
  const name = path.basename(filePath);
  const contents = new RunContentsBuilder(runId, name, options.maxTranscriptEntries ?? Infinity, warn);
  // The proposals are told by several types of record: wanting one of them is wanting them all.
  const only =
    options.only && proposalRecordTypes.some((type) => options.only?.has(type))
      ? new Set([...options.only, ...proposalRecordTypes])
      : options.only;
  const unwanted = runRecordTypes.filter((type) => only && !only.has(type)).map(linePrefixOf);
  // The writer puts `taskId` right after `type` in an entry line (run-recorder.ts).
  const entryPrefix = linePrefixOf('entry');
  const wantedEntries = options.task === undefined ? entryPrefix : `${entryPrefix}"taskId":${JSON.stringify(options.task)},`;
  const verifier = options.verify ? new ChainVerifier(options.verify.runKey, options.verify.problem) : undefined;
  let bytes = 0;
  const rejected: number[] = [];
  try {
    ({ bytes } = await readLines(
      handle,
      (line, lineNumber) => {
        if (verifier && !verifier.accept(line)) {
          rejected.push(lineNumber);
          return;
        }
        if (unwanted.some((prefix) => line.startsWith(prefix)) || (line.startsWith(entryPrefix) && !line.startsWith(wantedEntries))) return;
        const record = parseLine(line, lineNumber, name, warn);
        if (record && (!only || only.has(record.type))) contents.add(record, lineNumber);
      },
      {
        tooLong: (lineNumber) => {
          verifier?.skipped();
          warn(`${name}: line ${lineNumber} is longer than the ${maxLineBytes / 1024 / 1024} MiB a line may hold; it was skipped`);
        },
        cutShort: () => warn(`${name}: the last line was cut short (a crash while writing?); it was skipped`),
      },
    ));
  } finally {
    await handle.close();
  }
  const signature: RunSignature = verifier?.signature ?? { status: 'unchecked' };
  // In a run that verifies, a line that does not is a crash's cut line, or one written into the file since: said, never used.
  if (signature.status === 'signed')
    for (const lineNumber of rejected)
      warn(`${name}: line ${lineNumber} does not verify (a line cut short by a crash, or one written into the file since); it was skipped`);
  return { ...contents.build(signature), read: verifier ? { signature, tail: verifier.tail, bytes } : undefined };
}

function parseLine(line: string, lineNumber: number, name: string, warn: (message: string) => void): RunRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    warn(`${name}: line ${lineNumber} is not JSON (${errorMessage(error)}); it was skipped`);
    return undefined;
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && !(runRecordTypes as readonly string[]).includes(type)) return undefined;
  const parsed = runRecordSchema().safeParse(value);
  if (!parsed.success) {
    warn(`${name}: line ${lineNumber} does not fit a run record (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}); it was skipped`);
    return undefined;
  }
  return parsed.data as RunRecord;
}
