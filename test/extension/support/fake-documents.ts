/**
 * Text documents and workspace edits for the fake `vscode` module, over the real disk: a document is read
 * from its file when opened, edits change the document (it becomes dirty), `save()` writes it back.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { Position, type Range, type Uri } from './fake-basics.js';

export class FakeTextDocument {
  isDirty = false;
  saves = 0;

  constructor(
    readonly uri: Uri,
    private text: string,
    readonly languageId = 'plaintext',
    /** Where `save()` writes: the disk, or a registered file system provider's `writeFile`. */
    private readonly write: (uri: Uri, text: string) => unknown = (target, content) => writeFileSync(target.fsPath, content, 'utf8'),
  ) {}

  get fileName(): string {
    return this.uri.fsPath;
  }

  get lineCount(): number {
    return this.text.split('\n').length;
  }

  getText(range?: Range): string {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  positionAt(offset: number): Position {
    const before = this.text.slice(0, Math.max(0, Math.min(offset, this.text.length)));
    const lines = before.split('\n');
    return new Position(lines.length - 1, lines[lines.length - 1].length);
  }

  offsetAt(position: Position): number {
    const lines = this.text.split('\n');
    let offset = 0;
    for (let line = 0; line < position.line && line < lines.length; line++) offset += lines[line].length + 1;
    return Math.min(offset + position.character, this.text.length);
  }

  /** Test helper: the user types (the document becomes dirty). */
  setText(text: string): void {
    this.text = text;
    this.isDirty = true;
  }

  replace(range: Range, text: string): void {
    this.text = this.text.slice(0, this.offsetAt(range.start)) + text + this.text.slice(this.offsetAt(range.end));
    this.isDirty = true;
  }

  async save(): Promise<boolean> {
    await this.write(this.uri, this.text);
    this.isDirty = false;
    this.saves++;
    return true;
  }
}

type EditOperation =
  | { kind: 'replace'; uri: Uri; range: Range; text: string }
  | { kind: 'create'; uri: Uri; options: { overwrite?: boolean; ignoreIfExists?: boolean; contents?: Uint8Array } };

/** What the fake needs of a `vscode.FileSystemProvider` (synchronous reads, as ours are). */
export interface FakeFileSystemProvider {
  readFile(uri: Uri): Uint8Array | Thenable<Uint8Array>;
  writeFile(uri: Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void | Thenable<void>;
  stat(uri: Uri): unknown;
}

export class WorkspaceEdit {
  readonly operations: EditOperation[] = [];

  replace(uri: Uri, range: Range, text: string): void {
    this.operations.push({ kind: 'replace', uri, range, text });
  }

  createFile(uri: Uri, options: { overwrite?: boolean; ignoreIfExists?: boolean; contents?: Uint8Array } = {}): void {
    this.operations.push({ kind: 'create', uri, options });
  }
}

export class FakeDocuments {
  readonly documents: FakeTextDocument[] = [];
  readonly appliedEdits: WorkspaceEdit[] = [];

  /** File system providers by scheme (`workspace.registerFileSystemProvider`): their documents are read and saved through them. */
  readonly providers = new Map<string, FakeFileSystemProvider>();

  open(uri: Uri): FakeTextDocument {
    const existing = this.documents.find((document) => document.uri.toString() === uri.toString());
    if (existing) return existing;
    if (!existsSync(uri.fsPath)) throw new Error(`cannot open ${uri.fsPath}: no such file`);
    const document = new FakeTextDocument(uri, readFileSync(uri.fsPath, 'utf8'));
    this.documents.push(document);
    return document;
  }

  /** Opens a document of a scheme with a file system provider: read through it, saved through it. */
  async openThrough(uri: Uri, provider: FakeFileSystemProvider): Promise<FakeTextDocument> {
    const existing = this.documents.find((document) => document.uri.toString() === uri.toString());
    if (existing) return existing;
    const text = new TextDecoder().decode(await provider.readFile(uri));
    const document = new FakeTextDocument(uri, text, 'plaintext', (target, content) =>
      provider.writeFile(target, new TextEncoder().encode(content), { create: false, overwrite: true }),
    );
    this.documents.push(document);
    return document;
  }

  /** All or nothing, like VS Code: a create that would clobber an existing file fails the whole edit. */
  apply(edit: WorkspaceEdit): boolean {
    for (const operation of edit.operations) {
      if (
        operation.kind === 'create' &&
        existsSync(operation.uri.fsPath) &&
        !operation.options.overwrite &&
        !operation.options.ignoreIfExists
      )
        return false;
    }
    for (const operation of edit.operations) {
      if (operation.kind === 'create') {
        mkdirSync(nodePath.dirname(operation.uri.fsPath), { recursive: true });
        writeFileSync(operation.uri.fsPath, operation.options.contents ?? new Uint8Array());
      } else {
        this.open(operation.uri).replace(operation.range, operation.text);
      }
    }
    this.appliedEdits.push(edit);
    return true;
  }
}
