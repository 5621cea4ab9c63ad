import { describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ChangeSetRegistry } from '../../src/engine/changes/index.js';
import { ProposalFileSystem } from '../../src/extension/review/proposal-file-system.js';
import { parseProposalUri, proposalScheme, proposalUri } from '../../src/extension/review/proposal-uri.js';
import { Uri } from './support/fake-basics.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

function setup() {
  const changes = new ChangeSetRegistry();
  const changeSet = changes.create('t3', 'refactorer');
  changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 2;\n' });
  changeSet.propose('src/new file.ts', { baseContent: null, proposedContent: 'export {};\n' });
  return { changes, changeSet, provider: new ProposalFileSystem(changes) };
}

const text = (provider: ProposalFileSystem, uri: vscode.Uri) => new TextDecoder().decode(provider.readFile(uri));

describe('proposal documents', () => {
  it('serve the proposed content, and the base it was computed from', () => {
    const { provider } = setup();
    expect(text(provider, proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }))).toBe('const a = 2;\n');
    expect(text(provider, proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'base' }))).toBe('const a = 1;\n');
    expect(text(provider, proposalUri({ taskId: 't3', path: 'src/new file.ts', side: 'base' }))).toBe('');
    provider.dispose();
  });

  it('round-trip their address through the URI, with the file path as the path so the language is known', () => {
    const uri = proposalUri({ taskId: 't3', path: 'src/new file.ts', side: 'proposed' });
    expect(uri.scheme).toBe(proposalScheme);
    expect(uri.path).toBe('/src/new file.ts');
    const reparsed = (Uri as unknown as { parse(value: string): vscode.Uri }).parse(uri.toString());
    expect(parseProposalUri(reparsed)).toEqual({ taskId: 't3', path: 'src/new file.ts', side: 'proposed' });
  });

  it('answer an unknown task, file or address with text that says what to do', () => {
    const { provider } = setup();
    const unknownTask = text(provider, proposalUri({ taskId: 't9', path: 'src/app.ts', side: 'proposed' }));
    expect(unknownTask).toMatch(/no proposed change to src\/app\.ts from task t9.*Review Changes/s);
    const unknownFile = text(provider, proposalUri({ taskId: 't3', path: 'README.md', side: 'proposed' }));
    expect(unknownFile).toMatch(/no proposed change to README\.md from task t3/);
    const malformed = (Uri as unknown as { from(parts: object): vscode.Uri }).from({
      scheme: proposalScheme,
      path: '/src/app.ts',
      query: 'side=proposed',
    });
    expect(text(provider, malformed)).toMatch(/not the address of a proposed change/);
    provider.dispose();
  });

  it('tell open documents (both sides) to reload when the proposal changes', () => {
    const { changeSet, provider } = setup();
    const reloaded: string[] = [];
    provider.onDidChangeFile((events) => reloaded.push(...events.map((event) => event.uri.toString())));
    changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 3;\n' });
    expect(reloaded).toEqual([
      proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }).toString(),
      proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'base' }).toString(),
      proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'previous' }).toString(),
    ]);
    expect(text(provider, proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }))).toBe('const a = 3;\n');
    provider.dispose();
    changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 4;\n' });
    expect(reloaded).toHaveLength(3);
  });

  it('are writable on the proposed side only: the stat says so, and a later change raises the modification time', () => {
    const { changeSet, provider } = setup();
    const proposed = proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' });
    const base = proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'base' });
    expect(provider.stat(proposed).permissions).toBeUndefined();
    expect(provider.stat(base).permissions).toBe(1);
    expect(provider.stat(proposalUri({ taskId: 't9', path: 'src/app.ts', side: 'proposed' })).permissions).toBe(1);
    const before = provider.stat(proposed).mtime;
    changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 5;\n' });
    expect(provider.stat(proposed).mtime).toBeGreaterThan(before);
    expect(provider.stat(proposed).size).toBe('const a = 5;\n'.length);
    provider.dispose();
  });

  it('save the proposed side as the user\u2019s edit, and refuse the base side, an unknown proposal and one already written', () => {
    const { changeSet, provider } = setup();
    const encode = (value: string) => new TextEncoder().encode(value);
    provider.writeFile(proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }), encode('const a = 42;\n'));
    expect(changeSet.file('src/app.ts')).toMatchObject({ proposedContent: 'const a = 42;\n', editedByUser: true });
    expect(() => provider.writeFile(proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'base' }), encode('x'))).toThrow(
      expect.objectContaining({
        code: 'NoPermissions',
        message: expect.stringMatching(/src\/app\.ts as it was before the proposal is read-only/),
      }),
    );
    expect(() => provider.writeFile(proposalUri({ taskId: 't9', path: 'src/app.ts', side: 'proposed' }), encode('x'))).toThrow(
      /task t9 has no proposed change to src\/app\.ts/,
    );
    changeSet.accept({ path: 'src/app.ts' });
    changeSet.markApplied('src/app.ts');
    expect(() => provider.writeFile(proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }), encode('const a = 7;\n'))).toThrow(
      /already accepted and written/,
    );
    provider.dispose();
  });
});
