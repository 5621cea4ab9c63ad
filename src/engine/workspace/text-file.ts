import { WorkspaceError } from '../errors.js';

/** How many leading bytes are checked for a NUL byte, the same heuristic git and ripgrep use. */
export const binarySniffBytes = 8 * 1024;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, binarySniffBytes);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

// `fatal` so that text which would not survive a round trip is refused rather than silently mangled;
// `ignoreBOM` so that a BOM is kept in the text and written back.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a file's bytes so that encoding the result gives the same bytes back. Throws `binary` for
 * binary content and for text that is not valid UTF-8: editing either would corrupt it.
 */
export function decodeText(bytes: Uint8Array, path: string): string {
  if (looksBinary(bytes)) {
    throw new WorkspaceError('binary', `${path} is a binary file; only text files can be read or edited.`, path);
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new WorkspaceError('binary', `${path} is not valid UTF-8 text; Agent Team reads and edits UTF-8 text files only.`, path);
  }
}

export function tooLarge(path: string, size: number, limit: number, what: string): WorkspaceError {
  return new WorkspaceError(
    'too-large',
    `${path} is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for ${what}. Use Grep to find the part you need.`,
    path,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function notFound(path: string, hint = ''): WorkspaceError {
  return new WorkspaceError('not-found', `${path === '' ? 'The workspace root' : path} does not exist.${hint ? ` ${hint}` : ''}`, path);
}
