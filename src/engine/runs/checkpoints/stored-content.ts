/**
 * A file's bytes as a restore point keeps them: exactly, whatever they are. Text that is valid UTF-8 (and
 * comes back as the same bytes) is kept as it is, readable in the run log; anything else (a binary file,
 * Latin-1, a file cut in the middle of a character) as base64, so an undo writes back byte for byte what
 * was there. A file over `maxKeptBytes` is kept as its size and digest only: an undo can tell whether the
 * disk still holds it, but cannot bring it back, and says so.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';

/**
 * The most bytes of one file a restore point keeps. A run log's line holds at most 16 MiB, and base64
 * makes 8 MiB into 10.7 MiB: each file is its own line, so any file up to this fits.
 */
export const maxKeptBytes = 8 * 1024 * 1024;

/** What identifies a file's content: its size and SHA-256 (hex). */
export interface ContentDigest {
  bytes: number;
  sha256: string;
}

/** A file's content: `data` in `encoding`, or only its digest when it was too large to keep. */
export interface StoredContent extends ContentDigest {
  encoding?: 'utf8' | 'base64';
  data?: string;
}

/** Their schemas, built when the run-record schema is (run-log-records.ts), not when the module loads (B5). */
export function buildStoredContentSchemas() {
  const contentDigestSchema = z.object({ bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
  const storedContentSchema = contentDigestSchema.extend({
    encoding: z.enum(['utf8', 'base64']).optional(),
    data: z.string().optional(),
  });
  return { contentDigestSchema, storedContentSchema };
}

export function digestOf(content: Buffer): ContentDigest {
  return { bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

/** `content` kept whole when it is at most `limit` bytes (default `maxKeptBytes`), else its digest only. */
export function storeContent(content: Buffer, limit = maxKeptBytes): StoredContent {
  const digest = digestOf(content);
  if (content.length > limit) return digest;
  const text = content.toString('utf8');
  // A string that does not encode back to the same bytes would not be written back as them.
  if (Buffer.byteLength(text, 'utf8') === content.length && Buffer.from(text, 'utf8').equals(content))
    return { ...digest, encoding: 'utf8', data: text };
  return { ...digest, encoding: 'base64', data: content.toString('base64') };
}

/**
 * The bytes kept, checked against the digest (a run log is signed, but its lines are read back by a
 * lenient schema); undefined when the content was not kept (too large) or does not match what it claims.
 */
export function contentBytes(stored: StoredContent): Buffer | undefined {
  if (stored.data === undefined || stored.encoding === undefined) return undefined;
  const content = Buffer.from(stored.data, stored.encoding === 'utf8' ? 'utf8' : 'base64');
  return sameDigest(digestOf(content), stored) ? content : undefined;
}

export function sameDigest(a: ContentDigest | null, b: ContentDigest | null): boolean {
  if (a === null || b === null) return a === b;
  return a.bytes === b.bytes && a.sha256 === b.sha256;
}
