import type { ModelMessage, ToolResultPart } from '../model/types.js';
import { elidedResultText, truncatedResultNote } from './tool-results.js';

/**
 * How much tool output a conversation keeps, in UTF-8 bytes (what providers count against a request's
 * size). One result is cut where it enters (`truncateToolOutput`); the conversation as a whole drops its
 * oldest results first (`elideOldToolResults`), so a long run cannot grow its requests without bound.
 */

/** True for a byte limit that limits something: 0 and Infinity mean none. */
export function isByteLimit(maxBytes: number): boolean {
  return Number.isFinite(maxBytes) && maxBytes > 0;
}

/** The UTF-8 length of `text`, without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      // A surrogate pair is one 4-byte character.
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * `output` cut to at most `maxBytes` (the note included) at a character boundary, with a note saying how
 * much was dropped and how to ask for less. Output within the limit is returned as it is.
 */
export function truncateToolOutput(output: string, maxBytes: number): string {
  if (!isByteLimit(maxBytes) || output.length * 3 <= maxBytes) return output;
  const totalBytes = utf8ByteLength(output);
  if (totalBytes <= maxBytes) return output;
  // The note's size depends only on the numbers in it; measure it with the kept size at its widest.
  const noteBytes = utf8ByteLength(truncatedResultNote(totalBytes, totalBytes, maxBytes));
  const kept = prefixWithin(output, Math.max(0, maxBytes - noteBytes));
  return kept + truncatedResultNote(utf8ByteLength(kept), totalBytes, maxBytes);
}

/**
 * Replaces the oldest tool results in `messages` with a short note until all the results together take
 * at most `maxTotalBytes`. Messages are replaced, never changed in place (a caller's conversation may
 * share them). Returns how many results were elided.
 */
export function elideOldToolResults(messages: ModelMessage[], maxTotalBytes: number): number {
  if (!isByteLimit(maxTotalBytes)) return 0;
  const results: Array<{ messageIndex: number; partIndex: number; bytes: number }> = [];
  let totalBytes = 0;
  for (const [messageIndex, message] of messages.entries()) {
    if (message.role !== 'user') continue;
    for (const [partIndex, part] of message.content.entries()) {
      if (part.type !== 'tool-result') continue;
      const bytes = utf8ByteLength(part.output);
      results.push({ messageIndex, partIndex, bytes });
      totalBytes += bytes;
    }
  }
  let elided = 0;
  for (const result of results) {
    if (totalBytes <= maxTotalBytes) break;
    const message = messages[result.messageIndex] as Extract<ModelMessage, { role: 'user' }>;
    const part = message.content[result.partIndex] as ToolResultPart;
    const note = elidedResultText(part.toolName, result.bytes, maxTotalBytes);
    const noteBytes = utf8ByteLength(note);
    // Already a note (or about as small as one): eliding it gains nothing.
    if (noteBytes >= result.bytes) continue;
    const content = message.content.map((each, index) => (index === result.partIndex ? { ...part, output: note } : each));
    messages[result.messageIndex] = { role: 'user', content };
    totalBytes -= result.bytes - noteBytes;
    elided++;
  }
  return elided;
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes that does not split a character. */
function prefixWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && index + 1 < text.length;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    index += pair ? 2 : 1;
  }
  return text.slice(0, index);
}
