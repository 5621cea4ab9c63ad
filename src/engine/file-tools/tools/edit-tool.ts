import * as z from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { defineTool } from '../../agent/tool.js';
import { WorkspaceError } from '../../errors.js';
import { type ChangeSetWorkspace } from '../change-set-workspace.js';
import { notFound } from '../../workspace/text-file.js';
import { describeProposal } from './proposal-summary.js';

const editInput = builtOnFirstUse(() =>
  z.object({
    file_path: z.string().min(1).describe('The file to edit: relative to the workspace root, or an absolute path inside it.'),
    old_string: z
      .string()
      .describe('The exact text to replace, including whitespace and indentation. Must occur once unless replace_all is set.'),
    new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string. Default: false.'),
  }),
);

export function createEditTool(view: ChangeSetWorkspace) {
  return defineTool({
    name: 'Edit',
    description:
      'Replaces exact text in an existing file. old_string must match the file exactly (Read it first) and be ' +
      'unique unless replace_all is true. The edit is proposed for the user to review, not written to disk; your ' +
      'later Read, Grep and Glob calls see it.',
    inputSchema: editInput(),
    readOnly: false,
    async execute(input) {
      const path = view.resolve(input.file_path);
      if (input.old_string === '') {
        throw new WorkspaceError('invalid', 'old_string is empty. To create a file or replace all of it, use Write.', path);
      }
      if (input.old_string === input.new_string) {
        throw new WorkspaceError('invalid', 'old_string and new_string are the same, so the edit would change nothing.', path);
      }
      let before = '';
      let replacements = 0;
      const proposal = await view.update(path, (current) => {
        if (current === null) throw notFound(path, 'Use Write to create a new file.');
        before = current;
        const edit = replaceExact(current, input.old_string, input.new_string, input.replace_all ?? false, path);
        replacements = edit.count;
        return edit.content;
      });
      const what = `Replaced ${replacements} occurrence${replacements === 1 ? '' : 's'} in ${path}.`;
      return describeProposal(what, path, before, proposal);
    },
  });
}

/**
 * Replaces `oldString` in `content`. When the file uses CRLF line endings and the model wrote `\n`
 * (models almost always do), both strings are matched and written with the file's `\r\n`.
 */
export function replaceExact(
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  path: string,
): { content: string; count: number } {
  let search = oldString;
  let replacement = newString;
  let count = countOccurrences(content, search);
  if (count === 0 && content.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    search = oldString.replace(/\n/g, '\r\n');
    replacement = newString.replace(/\r?\n/g, '\r\n');
    count = countOccurrences(content, search);
  }
  if (count === 0) {
    throw new WorkspaceError(
      'invalid',
      `old_string was not found in ${path}. It must match exactly, including whitespace, indentation and line breaks; Read the file and copy the text.`,
      path,
    );
  }
  if (count > 1 && !replaceAll) {
    throw new WorkspaceError(
      'invalid',
      `old_string occurs ${count} times in ${path}. Include more surrounding lines to make it unique, or set replace_all to true to replace all ${count}.`,
      path,
    );
  }
  // split/join rather than String.replace: `$&` and friends in new_string must stay literal.
  if (replaceAll) return { content: content.split(search).join(replacement), count };
  const at = content.indexOf(search);
  return { content: content.slice(0, at) + replacement + content.slice(at + search.length), count: 1 };
}

function countOccurrences(content: string, search: string): number {
  let count = 0;
  for (let at = content.indexOf(search); at >= 0; at = content.indexOf(search, at + search.length)) count++;
  return count;
}
