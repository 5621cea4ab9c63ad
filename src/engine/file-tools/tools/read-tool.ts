import * as z from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { defineTool } from '../../agent/tool.js';
import { type ChangeSetWorkspace } from '../change-set-workspace.js';
import { formatBytes } from '../../workspace/text-file.js';

/** Lines returned when the model gives no `limit`. */
export const defaultReadLineLimit = 2000;
/** Longer lines are cut (minified files would otherwise fill the context). */
export const maxReadLineLength = 2000;

const readInput = builtOnFirstUse(() =>
  z.object({
    file_path: z.string().min(1).describe('The file to read: relative to the workspace root, or an absolute path inside it.'),
    offset: z.number().int().min(1).optional().describe('The 1-based line to start at. Default: 1.'),
    limit: z.number().int().min(1).optional().describe(`How many lines to read. Default: ${defaultReadLineLimit}.`),
  }),
);

export function createReadTool(view: ChangeSetWorkspace) {
  const maxBytes = view.policy.maxReadBytesPerCall;
  return defineTool({
    name: 'Read',
    description:
      'Reads a text file from the workspace, with line numbers (like `cat -n`). Reads up to ' +
      `${defaultReadLineLimit} lines from the start by default; use offset and limit for long files. ` +
      'Shows your own pending edits. Secret files (.env, keys) are not readable.',
    inputSchema: readInput(),
    readOnly: true,
    async execute(input, context) {
      const path = view.resolve(input.file_path);
      const text = await view.readText(path, { signal: context.signal });
      return formatNumberedLines(path, text, input.offset ?? 1, input.limit ?? defaultReadLineLimit, maxBytes);
    },
  });
}

/** `cat -n` style output of lines [offset, offset + limit), within `maxBytes`, with notes on what is left. */
export function formatNumberedLines(path: string, text: string, offset: number, limit: number, maxBytes: number): string {
  if (text === '') return `(${path} is empty)`;
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const total = lines.length;
  if (offset > total) return `(${path} has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past the end.)`;
  const output: string[] = [];
  let bytes = 0;
  let last = offset - 1;
  let cutByBytes = false;
  let cutLines = 0;
  for (let index = offset - 1; index < Math.min(total, offset - 1 + limit); index++) {
    let line = lines[index].endsWith('\r') ? lines[index].slice(0, -1) : lines[index];
    if (line.length > maxReadLineLength) {
      line = `${line.slice(0, maxReadLineLength)}… [line cut at ${maxReadLineLength} characters]`;
      cutLines++;
    }
    const numbered = `${String(index + 1).padStart(6)}\t${line}`;
    const size = Buffer.byteLength(numbered, 'utf8') + 1;
    if (bytes + size > maxBytes && output.length > 0) {
      cutByBytes = true;
      break;
    }
    output.push(numbered);
    bytes += size;
    last = index + 1;
  }
  const notes: string[] = [];
  if (cutByBytes) {
    notes.push(
      `[Output stopped at ${formatBytes(maxBytes)} after line ${last} of ${total}. Call Read with offset=${last + 1} to read on.]`,
    );
  } else if (last < total) {
    notes.push(`[Showing lines ${offset}-${last} of ${total}. Call Read with offset=${last + 1} to read on.]`);
  }
  if (cutLines > 0) notes.push(`[${cutLines} long line${cutLines === 1 ? ' was' : 's were'} cut; use Grep to find text in them.]`);
  return [...output, ...notes].join('\n');
}
