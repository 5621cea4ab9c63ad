/**
 * The saved proposals' bytes (change-store.ts), made without holding the extension host's event loop,
 * which every extension and the editor share. A change set carries whole files (base and proposal), and
 * the store rewrites every pending set at each save: ten sets of a megabyte each, serialized whole at
 * every save, held the loop for 150 ms at once and were most of the host's CPU while ten refactorers
 * edited (B15 in docs/performance.md). So each file's contents are serialized once, on a turn of the
 * loop of their own, and kept until they change; a save serializes only the small rest of each set.
 * The JSON is the snapshot's, with each file's contents as its last keys (the store's reader parses it;
 * the order of keys means nothing to it).
 */
import type { ChangeSetSnapshot } from '../engine/index.js';

/** What a save copies into the file's bytes per turn of the event loop: a millisecond's worth. */
const copyBytesPerTurn = 1024 * 1024;

/**
 * Characters of a file's contents serialized per turn of the event loop: a millisecond's worth. The JSON
 * of a string is the JSON of its pieces, quotes aside (a piece that splits a surrogate pair escapes its
 * halves, which read back as the same pair).
 */
const contentCharsPerTurn = 256 * 1024;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `{"a":1}` → `"a":1,` (empty for `{}`): an object's members, ready to be followed by more. */
function membersOf(value: object): string {
  const json = JSON.stringify(value);
  return json === '{}' ? '' : `${json.slice(1, -1)},`;
}

export class ChangeSetBytes {
  private readonly encoder = new TextEncoder();
  /** Per task, path and field: the contents last serialized, and their JSON as UTF-8, in pieces. */
  private readonly contents = new Map<string, { taskId: string; text: string; bytes: Uint8Array[] }>();

  /** `JSON.stringify(snapshot)`, keys reordered, as UTF-8 parts; contents not serialized before take turns of their own. */
  async of(snapshot: ChangeSetSnapshot): Promise<Uint8Array[]> {
    const { files, ...set } = snapshot;
    const parts: Uint8Array[] = [this.encoder.encode(`{${membersOf(set)}"files":[`)];
    for (const [index, file] of files.entries()) {
      const { baseContent, proposedContent, diff, ...rest } = file;
      parts.push(this.encoder.encode(`${index > 0 ? ',' : ''}{${membersOf(rest)}"baseContent":`));
      parts.push(
        ...(baseContent === null
          ? [this.encoder.encode('null')]
          : await this.contentBytes(snapshot.taskId, `${file.path}\0base`, baseContent)),
      );
      parts.push(this.encoder.encode(',"proposedContent":'));
      parts.push(...(await this.contentBytes(snapshot.taskId, `${file.path}\0proposed`, proposedContent)));
      parts.push(this.encoder.encode(',"diff":'));
      parts.push(...(await this.contentBytes(snapshot.taskId, `${file.path}\0diff`, diff)));
      parts.push(this.encoder.encode('}'));
    }
    parts.push(this.encoder.encode(']}'));
    return parts;
  }

  /** Lets go of the contents of tasks other than these (their sets are not saved any more). */
  keepOnly(taskIds: ReadonlySet<string>): void {
    for (const [key, kept] of [...this.contents]) if (!taskIds.has(kept.taskId)) this.contents.delete(key);
  }

  private async contentBytes(taskId: string, field: string, text: string): Promise<Uint8Array[]> {
    const key = `${taskId}\0${field}`;
    const kept = this.contents.get(key);
    // Compared by identity first: contents that did not change are still the same string.
    if (kept?.text === text) return kept.bytes;
    const quote = this.encoder.encode('"');
    const bytes = [quote];
    for (let start = 0; start < text.length; start += contentCharsPerTurn) {
      bytes.push(this.encoder.encode(JSON.stringify(text.slice(start, start + contentCharsPerTurn)).slice(1, -1)));
      await nextTurn();
    }
    bytes.push(quote);
    this.contents.set(key, { taskId, text, bytes });
    return bytes;
  }
}

/** The parts as one array, copied a few megabytes per turn of the event loop. */
export async function joined(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  let copiedThisTurn = 0;
  for (const part of parts) {
    if (copiedThisTurn > copyBytesPerTurn) {
      await nextTurn();
      copiedThisTurn = 0;
    }
    bytes.set(part, offset);
    offset += part.length;
    copiedThisTurn += part.length;
  }
  return bytes;
}
