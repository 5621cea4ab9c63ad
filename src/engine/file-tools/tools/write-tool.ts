import * as z from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { defineTool } from '../../agent/tool.js';
import { type ChangeSetWorkspace } from '../change-set-workspace.js';
import { describeProposal } from './proposal-summary.js';

const writeInput = builtOnFirstUse(() =>
  z.object({
    file_path: z.string().min(1).describe('The file to write: relative to the workspace root, or an absolute path inside it.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

export function createWriteTool(view: ChangeSetWorkspace) {
  return defineTool({
    name: 'Write',
    description:
      'Creates a file, or replaces all of an existing file, with the given content (parent folders are created ' +
      'as needed). For changes to part of a file, prefer Edit. The content is proposed for the user to review, ' +
      'not written to disk; your later Read, Grep and Glob calls see it.',
    inputSchema: writeInput(),
    readOnly: false,
    async execute(input) {
      const path = view.resolve(input.file_path);
      let before: string | null = null;
      const proposal = await view.update(path, (current) => {
        before = current;
        return input.content;
      });
      const lineCount = input.content === '' ? 0 : input.content.split('\n').length - (input.content.endsWith('\n') ? 1 : 0);
      const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
      const what = before === null ? `Created ${path} (${lines}).` : `Rewrote ${path} (${lines}).`;
      return describeProposal(what, path, before, proposal);
    },
  });
}
