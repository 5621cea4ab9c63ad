/**
 * Each line of a run log ends with a MAC: `…,"mac":"<HMAC-SHA256, base64url>"}`, keyed per run (from the
 * run folder's key, run-log-key.ts, and the run's id) and chained: a line's MAC covers the previous
 * line's MAC and its own text, so a line inserted, removed, reordered, edited or copied from another run
 * or folder breaks the chain. A run whose file verifies was written by this user's agent-team in this
 * folder; any other is foreign (planted, edited, another user's, or written before run logs were signed).
 *
 * The MAC is the last field, so a line still begins with its `type` (readers skip by that prefix) and the
 * schemas, which drop unknown fields, read it as before. Appending stays cheap: a line is hashed once as
 * it is written, never the file again. The one exception to "every line verifies" is a crash: a line
 * cut short and followed by the next process's lines, which chain from the line before it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** `,"mac":"` + 43 characters + `"}`: what signing adds to a line, less the `}` it replaces. */
export const signatureBytes = 52;
const suffixLength = signatureBytes + 1;
const suffixPattern = /^,"mac":"([A-Za-z0-9_-]{43})"\}$/;

/** The key of one run's lines. */
export function runKeyOf(folderKey: Buffer, runId: string): Buffer {
  return createHmac('sha256', folderKey).update(`agent-team run log v1\n${runId}`).digest();
}

function macOf(runKey: Buffer, previous: string, body: string): string {
  return createHmac('sha256', runKey).update(previous).update('\n').update(body, 'utf8').digest('base64url');
}

/** `json` (a record as JSON.stringify wrote it, no newline) with its MAC as its last field; `mac` goes on the chain. */
export function signLine(runKey: Buffer, previous: string, json: string): { line: string; mac: string } {
  const body = json.slice(0, -1);
  const mac = macOf(runKey, previous, body);
  return { line: `${body},"mac":"${mac}"}`, mac };
}

/** The line's MAC when it verifies after `previous`; undefined when it does not (or has none). */
export function verifiedMac(runKey: Buffer, previous: string, line: string): string | undefined {
  const found = suffixPattern.exec(line.slice(-suffixLength))?.[1];
  if (found === undefined || line.length <= suffixLength) return undefined;
  const expected = macOf(runKey, previous, line.slice(0, -suffixLength));
  return timingSafeEqual(Buffer.from(found), Buffer.from(expected)) ? expected : undefined;
}

/** Whether a run is its user's own; why not, when it is foreign. */
export type RunSignature = { status: 'signed' } | { status: 'foreign'; reason: ForeignReason; problem?: string } | { status: 'unchecked' };
export type ForeignReason = 'unsigned' | 'altered' | 'no-key';

/** Says why a run is foreign, for messages ("Run t3 is foreign: …"). */
export function describeForeign(signature: RunSignature): string {
  if (signature.status !== 'foreign') return signature.status === 'signed' ? 'its run log verifies' : 'its run log was not checked';
  if (signature.reason === 'unsigned') return 'its run log is not signed (written before run logs were signed, or not by you)';
  if (signature.reason === 'altered')
    return "its run log's signature does not verify (changed after it was written, copied from another folder, or written by another user)";
  return `run logs cannot be checked: ${signature.problem ?? 'no key'}`;
}

/**
 * Checks a file's lines in order. The first line decides: a signed file has its verified lines used and
 * nothing else (any other line, but a crash's cut-short one, makes it foreign); an unsigned or altered
 * one is read whole, as before signing, for a host that goes on with it anyway (`--force`).
 */
export class ChainVerifier {
  private previous = '';
  private mode: 'undecided' | 'signed' | 'foreign' = 'undecided';
  private reason: ForeignReason = 'unsigned';
  /** A line that did not verify, waiting to see whether the next one does (a crash's cut line) or not. */
  private unverifiedPending = false;
  private broken = false;

  constructor(
    private readonly runKey: Buffer | undefined,
    private readonly problem?: string,
  ) {}

  /** True when the line's content may be used. */
  accept(line: string): boolean {
    if (this.mode === 'foreign') return true;
    if (!this.runKey) {
      this.mode = 'foreign';
      this.reason = 'no-key';
      return true;
    }
    const mac = verifiedMac(this.runKey, this.previous, line);
    if (this.mode === 'undecided') {
      // A first line that is no whole record (every record ends with `}`) was cut by a crash: the next decides.
      if (!mac && !line.endsWith('}') && !this.unverifiedPending) {
        this.unverifiedPending = true;
        return false;
      }
      this.unverifiedPending = false;
      this.mode = mac ? 'signed' : 'foreign';
      if (!mac) this.reason = suffixPattern.test(line.slice(-suffixLength)) ? 'altered' : 'unsigned';
      if (!mac) return true;
    }
    if (mac) {
      this.previous = mac;
      this.unverifiedPending = false;
      return true;
    }
    // Two in a row is no crash: one cut line is followed by a line that verifies.
    if (this.unverifiedPending) this.broken = true;
    this.unverifiedPending = true;
    return false;
  }

  /** A line too long to be read: it cannot verify. */
  skipped(): void {
    if (this.mode !== 'foreign') this.accept('');
  }

  /** The MAC the next line written must chain from. */
  get tail(): string {
    return this.previous;
  }

  get signature(): RunSignature {
    if (this.mode === 'signed' && !this.broken && !this.unverifiedPending) return { status: 'signed' };
    const reason = this.mode === 'signed' ? 'altered' : this.reason;
    return { status: 'foreign', reason, ...(reason === 'no-key' && this.problem !== undefined ? { problem: this.problem } : {}) };
  }
}
