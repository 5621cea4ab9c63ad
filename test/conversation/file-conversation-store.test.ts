/**
 * Conversations on disk: one file per run, read back whole; a torn or foreign file and a link are not
 * used; ids that could name another file are refused; the oldest beyond the limit go as new ones are written.
 */
import { mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileConversationStore } from '../../src/engine/conversation/file-conversation-store.js';
import type { ModelMessage } from '../../src/engine/model/types.js';

let directory: string;
const conversation: ModelMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'Where is the parser?' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'In src/parser.ts.' }] },
];

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'agent-team-conversations-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('FileConversationStore', () => {
  it('keeps a run\u2019s conversation for a later process, and refuses ids that could name another file', async () => {
    await new FileConversationStore(directory).save('t7', conversation);
    expect(await new FileConversationStore(directory).load('t7')).toEqual(conversation);
    await new FileConversationStore(directory).save('../escape', conversation);
    expect(await readdir(directory)).toEqual(['t7.conversation.json']);
    expect(await new FileConversationStore(directory).load('t8')).toBeUndefined();
  });

  it('does not use a torn file, a file of another shape, or a link', async () => {
    await writeFile(path.join(directory, 't1.conversation.json'), '{"version":1,"messages":[{"role":"user","content":[{"type":"te');
    await writeFile(
      path.join(directory, 't2.conversation.json'),
      JSON.stringify({ version: 1, messages: [{ role: 'system', content: 'x' }] }),
    );
    const outside = path.join(directory, 'elsewhere.json');
    await writeFile(outside, JSON.stringify({ version: 1, messages: conversation }));
    await symlink(outside, path.join(directory, 't3.conversation.json'));
    const store = new FileConversationStore(directory);
    for (const id of ['t1', 't2', 't3']) expect(await store.load(id)).toBeUndefined();
  });

  it('removes the oldest conversations beyond its limit as it writes a new one', async () => {
    for (let index = 1; index <= 5; index++) {
      const file = path.join(directory, `t${index}.conversation.json`);
      await writeFile(file, JSON.stringify({ version: 1, messages: conversation }));
      await utimes(file, 1_700_000_000 + index, 1_700_000_000 + index);
    }
    const store = new FileConversationStore(directory, 3);
    await store.save('t6', conversation);
    expect((await readdir(directory)).sort()).toEqual(['t4.conversation.json', 't5.conversation.json', 't6.conversation.json']);
  });
});
