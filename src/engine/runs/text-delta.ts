/**
 * A text told as an earlier one with its middle replaced: the earlier text's first `keepStart` and last
 * `keepEnd` characters (UTF-16 code units, as JavaScript counts them) with `text` between. An edit of a big
 * file changes a few lines, so what a proposal's record holds for it is those lines, not the file again.
 */

export interface TextDelta {
  keepStart: number;
  keepEnd: number;
  /** What comes between the kept start and end. */
  text: string;
}

/**
 * Compared in blocks first: comparing two slices is one native comparison of memory, where a loop over
 * characters would cost a call per character of a megabyte's common start.
 */
const blockLength = 4096;

/** The delta that makes `next` from `previous`: their common start and end kept, the rest replaced. */
export function deltaBetween(previous: string, next: string): TextDelta {
  const shorter = Math.min(previous.length, next.length);
  let start = 0;
  while (start + blockLength <= shorter && previous.slice(start, start + blockLength) === next.slice(start, start + blockLength))
    start += blockLength;
  while (start < shorter && previous.charCodeAt(start) === next.charCodeAt(start)) start++;
  // The common end may not reach into the common start: each character is kept once.
  const room = shorter - start;
  let end = 0;
  while (
    end + blockLength <= room &&
    previous.slice(previous.length - end - blockLength, previous.length - end) ===
      next.slice(next.length - end - blockLength, next.length - end)
  )
    end += blockLength;
  while (end < room && previous.charCodeAt(previous.length - end - 1) === next.charCodeAt(next.length - end - 1)) end++;
  return { keepStart: start, keepEnd: end, text: next.slice(start, next.length - end) };
}

/** The text `delta` makes of `previous`; undefined when `previous` is too short to keep what it says. */
export function applyDelta(previous: string, delta: TextDelta): string | undefined {
  if (delta.keepStart + delta.keepEnd > previous.length) return undefined;
  const built = previous.slice(0, delta.keepStart) + delta.text + previous.slice(previous.length - delta.keepEnd);
  // V8 builds that as a rope of slices of `previous`, which keeps `previous` alive as long as the result
  // is kept unread (a reader keeps a task's texts to the end): reading a character makes it one flat
  // string, and lets `previous` go.
  built.charCodeAt(0);
  return built;
}
