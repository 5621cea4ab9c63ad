import { describe, expect, it } from 'vitest';
import { contentBytes, digestOf, storeContent } from '../../../src/engine/runs/checkpoints/stored-content.js';

describe('stored content: what a restore point keeps of a file', () => {
  it('keeps UTF-8 text as text, BOM and CRLF included, and gives back the same bytes', () => {
    const text = Buffer.from('\uFEFFline one\r\nline two\r\n', 'utf8');
    const stored = storeContent(text);
    expect(stored.encoding).toBe('utf8');
    expect(contentBytes(stored)?.equals(text)).toBe(true);
  });

  it('keeps bytes that are not UTF-8 (a binary file, Latin-1, a cut character) as base64, exactly', () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0xe9, 0xe2, 0x82]);
    const stored = storeContent(binary);
    expect(stored.encoding).toBe('base64');
    expect(contentBytes(stored)?.equals(binary)).toBe(true);
    expect(contentBytes(storeContent(Buffer.alloc(0)))?.length).toBe(0);
  });

  it('keeps only the digest of a file over the limit: it cannot be given back', () => {
    const large = Buffer.alloc(11, 'a');
    const stored = storeContent(large, 10);
    expect(stored).toEqual(digestOf(large));
    expect(contentBytes(stored)).toBeUndefined();
  });

  it('gives back nothing when the kept data does not match its digest', () => {
    const stored = storeContent(Buffer.from('original\n'));
    expect(contentBytes({ ...stored, data: 'altered!\n' })).toBeUndefined();
  });
});
