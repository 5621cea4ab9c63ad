/**
 * The whole lines two texts share at their beginning and at their end, found by comparing blocks of
 * characters rather than by splitting both texts into lines: an edit of one line in a file of 20,000
 * then splits and diffs only the lines around it, not the whole file twice (a diff per edit ran 20 ms on
 * the event loop the VS Code extension host shares with the editor; B15 in docs/performance.md).
 */

/** Characters compared at once while the texts agree: a slice comparison is a memory compare. */
const blockLength = 1024;

export interface CommonLines {
  /** Characters of the shared leading lines (the same in both texts), and how many lines they are. */
  prefixChars: number;
  prefixLines: number;
  /** Characters of the shared trailing lines (the same in both texts; never overlapping the prefix). */
  suffixChars: number;
}

/**
 * The shared whole lines at both ends of `a` and `b`, less `keep` lines next to the differing middle on
 * each side (a diff shows them as context). Never more than the lines really shared, and the prefix is
 * taken first, as a line-by-line comparison takes it; it may leave out a shared line at the end.
 */
export function commonLines(a: string, b: string, keep: number): CommonLines {
  let prefixChars = lineStartAtOrBefore(a, commonPrefixLength(a, b));
  // Where the shared end starts in `a`; it shares whole lines only from after a newline inside it, which
  // both texts then have.
  let suffixStart = a.length - commonSuffixLength(a, b, Math.min(a.length, b.length) - prefixChars);
  for (let line = 0; line <= keep && suffixStart < a.length; line++) {
    const newline = a.indexOf('\n', suffixStart);
    suffixStart = newline === -1 ? a.length : newline + 1;
  }
  for (let line = 0; line < keep && prefixChars > 0; line++) prefixChars = prefixChars < 2 ? 0 : a.lastIndexOf('\n', prefixChars - 2) + 1;
  return { prefixChars, prefixLines: countNewlines(a, prefixChars), suffixChars: a.length - suffixStart };
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at + blockLength <= limit && a.slice(at, at + blockLength) === b.slice(at, at + blockLength)) at += blockLength;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** Characters `a` and `b` share at their ends, at most `limit`. */
function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (
    length + blockLength <= limit &&
    a.slice(a.length - length - blockLength, a.length - length) === b.slice(b.length - length - blockLength, b.length - length)
  )
    length += blockLength;
  while (length < limit && a.charCodeAt(a.length - length - 1) === b.charCodeAt(b.length - length - 1)) length++;
  return length;
}

/** The start of the line `position` is in, or `position` itself when a line starts there. */
function lineStartAtOrBefore(text: string, position: number): number {
  return position === 0 ? 0 : text.lastIndexOf('\n', position - 1) + 1;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
