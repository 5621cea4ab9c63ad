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
    writeFileSync(this.uri.fsPath, this.text, 'utf8');
    this.isDirty = false;
    this.saves++;
    return true;
  }
}

type EditOperation =
  | { kind: 'replace'; uri: Uri; range: Range; text: string }
  | { kind: 'create'; uri: Uri; options: { overwrite?: boolean; ignoreIfExists?: boolean; contents?: Uint8Array } };

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

  open(uri: Uri): FakeTextDocument {
    const existing = this.documents.find((document) => document.uri.toString() === uri.toString());
    if (existing) return existing;
    if (!existsSync(uri.fsPath)) throw new Error(`cannot open ${uri.fsPath}: no such file`);
    const document = new FakeTextDocument(uri, readFileSync(uri.fsPath, 'utf8'));
    this.documents.push(document);
    return document;
  }

  /** All or nothing, like VS Code: a create that would clobber an existing file fails the whole edit. */
  apply(edit: WorkspaceEdit): boolean {
    for (const operation of edit.operations) {
      if (operation.kind === 'create' && existsSync(operation.uri.fsPath) && !operation.options.overwrite && !operation.options.ignoreIfExists) return false;
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
