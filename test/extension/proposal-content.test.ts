import { describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ChangeSetRegistry } from '../../src/engine/changes/index.js';
import { ProposalContentProvider } from '../../src/extension/review/proposal-content-provider.js';
import { parseProposalUri, proposalScheme, proposalUri } from '../../src/extension/review/proposal-uri.js';
import { Uri } from './support/fake-basics.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

function setup() {
  const changes = new ChangeSetRegistry();
  const changeSet = changes.create('t3', 'refactorer');
  changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 2;\n' });
  changeSet.propose('src/new file.ts', { baseContent: null, proposedContent: 'export {};\n' });
  return { changes, changeSet, provider: new ProposalContentProvider(changes) };
}

describe('proposal documents', () => {
  it('serve the proposed content, and the base it was computed from', () => {
    const { provider } = setup();
    expect(provider.provideTextDocumentContent(proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }))).toBe('const a = 2;\n');
    expect(provider.provideTextDocumentContent(proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'base' }))).toBe('const a = 1;\n');
    expect(provider.provideTextDocumentContent(proposalUri({ taskId: 't3', path: 'src/new file.ts', side: 'base' }))).toBe('');
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
    const unknownTask = provider.provideTextDocumentContent(proposalUri({ taskId: 't9', path: 'src/app.ts', side: 'proposed' }));
    expect(unknownTask).toMatch(/no proposed change to src\/app\.ts from task t9.*Review Changes/s);
    const unknownFile = provider.provideTextDocumentContent(proposalUri({ taskId: 't3', path: 'README.md', side: 'proposed' }));
    expect(unknownFile).toMatch(/no proposed change to README\.md from task t3/);
    const malformed = (Uri as unknown as { from(parts: object): vscode.Uri }).from({ scheme: proposalScheme, path: '/src/app.ts', query: 'side=proposed' });
    expect(provider.provideTextDocumentContent(malformed)).toMatch(/not the address of a proposed change/);
    provider.dispose();
  });

  it('tell open documents (both sides) to reload when the proposal changes', () => {
    const { changeSet, provider } = setup();
    const reloaded: string[] = [];
    provider.onDidChange((uri) => reloaded.push(uri.toString()));
    changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 3;\n' });
    expect(reloaded).toEqual([
      proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }).toString(),
      proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'base' }).toString(),
    ]);
    expect(provider.provideTextDocumentContent(proposalUri({ taskId: 't3', path: 'src/app.ts', side: 'proposed' }))).toBe('const a = 3;\n');
    provider.dispose();
    changeSet.propose('src/app.ts', { baseContent: 'const a = 1;\n', proposedContent: 'const a = 4;\n' });
    expect(reloaded).toHaveLength(2);
  });
});
