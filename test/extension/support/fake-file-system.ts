/** `workspace.fs` of the fake `vscode` module: the real disk, with VS Code's `FileSystemError`s. */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { FileSystemError, FileType, type Uri } from './fake-basics.js';

function fileError(error: unknown, uri: Uri): never {
  if ((error as { code?: string }).code === 'ENOENT') throw FileSystemError.FileNotFound(uri);
  throw error;
}

export const diskFileSystem = {
  async readFile(uri: Uri) {
    try {
      return new Uint8Array(readFileSync(uri.fsPath));
    } catch (error) {
      return fileError(error, uri);
    }
  },
  async writeFile(uri: Uri, content: Uint8Array) {
    mkdirSync(nodePath.dirname(uri.fsPath), { recursive: true });
    writeFileSync(uri.fsPath, content);
  },
  async createDirectory(uri: Uri) {
    mkdirSync(uri.fsPath, { recursive: true });
  },
  async rename(from: Uri, to: Uri) {
    try {
      renameSync(from.fsPath, to.fsPath);
    } catch (error) {
      fileError(error, from);
    }
  },
  async readDirectory(uri: Uri) {
    try {
      return readdirSync(uri.fsPath, { withFileTypes: true }).map(
        (entry) => [entry.name, entry.isDirectory() ? FileType.Directory : FileType.File] as [string, FileType],
      );
    } catch (error) {
      return fileError(error, uri);
    }
  },
  async stat(uri: Uri) {
    try {
      const info = statSync(uri.fsPath);
      return { type: info.isDirectory() ? FileType.Directory : FileType.File, size: info.size, mtime: info.mtimeMs, ctime: info.ctimeMs };
    } catch (error) {
      return fileError(error, uri);
    }
  },
};
