import { describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { changeSetSnapshotSchemas } from '../../src/engine/changes/change-set-schema.js';
import { ChangeSetBytes, joined } from '../../src/extension/change-set-bytes.js';

async function json(bytes: ChangeSetBytes, set: ChangeSet): Promise<{ text: string; parts: Uint8Array[] }> {
  const parts = await bytes.of(set.snapshot());
  return { text: new TextDecoder().decode(await joined(parts)), parts };
}

function changeSet(): ChangeSet {
  const set = new ChangeSet({ taskId: 't1', role: 'refactorer' });
  set.propose('a.txt', { baseContent: 'one\ntwo\nthree\n', proposedContent: 'one\n2\nthree\n' });
  set.propose('b.txt', { baseContent: null, proposedContent: 'new file — with "quotes", \\ and UTF-8 😀\n' });
  return set;
}

describe("the saved proposals' bytes", () => {
  it("are the JSON of the snapshot, read back as the snapshot by the store's schema", async () => {
    const set = changeSet();
    const { text } = await json(new ChangeSetBytes(), set);
    expect(JSON.parse(text)).toEqual(set.snapshot());
    expect(changeSetSnapshotSchemas.lenient.parse(JSON.parse(text))).toEqual(set.snapshot());
  });

  it("serialize a file's contents once, and again only when they change", async () => {
    const set = changeSet();
    const bytes = new ChangeSetBytes();
    const first = await json(bytes, set);
    set.accept({ path: 'a.txt' });
    const decided = await json(bytes, set);
    expect(JSON.parse(decided.text)).toEqual(set.snapshot());
    // The contents' parts are the very arrays of the first save: not serialized again.
    expect(decided.parts.filter((part) => first.parts.includes(part)).length).toBeGreaterThanOrEqual(5);

    set.propose('a.txt', { baseContent: 'one\ntwo\nthree\n', proposedContent: 'one\n2\n3\n' });
    expect(JSON.parse((await json(bytes, set)).text)).toEqual(set.snapshot());
  });

  it('serialize large contents in pieces that read back as the contents, a surrogate pair split between two', async () => {
    const set = new ChangeSet({ taskId: 't1', role: 'refactorer' });
    const large = `${'a'.repeat(256 * 1024 - 1)}😀 "quoted" \\ and\nmore\n`.repeat(3);
    set.propose('big.txt', { baseContent: large, proposedContent: `${large}one more line\n` });
    const { text } = await json(new ChangeSetBytes(), set);
    expect(JSON.parse(text)).toEqual(set.snapshot());
  });

  it('let go of sets not saved any more, and join parts as one array', async () => {
    const bytes = new ChangeSetBytes();
    const first = await json(bytes, changeSet());
    bytes.keepOnly(new Set());
    const again = await json(bytes, changeSet());
    expect(again.parts.filter((part) => first.parts.includes(part))).toEqual([]);
    const encoder = new TextEncoder();
    expect(new TextDecoder().decode(await joined([encoder.encode('[1,'), encoder.encode('2'), encoder.encode(']')]))).toBe('[1,2]');
  });
});
