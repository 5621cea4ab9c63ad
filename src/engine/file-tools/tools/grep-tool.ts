import * as z from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { defineTool } from '../../agent/tool.js';
import { type ChangeSetWorkspace } from '../change-set-workspace.js';

/** Matching lines longer than this are cut in the output. */
export const maxGrepLineLength = 500;

const grepInput = builtOnFirstUse(() =>
  z.object({
    pattern: z
      .string()
      .describe(
        'A regular expression in RE2 syntax (as ripgrep uses: no look-around, no backreferences), matched line by line. Prefix (?i) to ignore case.',
      ),
    path: z.string().optional().describe('A file or directory to search (relative to the workspace root). Default: the whole workspace.'),
    glob: z
      .string()
      .optional()
      .describe('Only search files matching this glob: "*.ts" or "*.{ts,tsx}" match names at any depth, "src/**/*.ts" a path.'),
  }),
);

export function createGrepTool(view: ChangeSetWorkspace, maxResults: number) {
  return defineTool({
    name: 'Grep',
    description:
      'Searches file contents for a regular expression and returns matching lines as `path:line: text`, ' +
      'sorted by path and line. Skips node_modules, version-control folders, .gitignored, binary and secret files. ' +
      'Sees your own pending edits.',
    inputSchema: grepInput(),
    readOnly: true,
    async execute(input, context) {
      const result = await view.search(input.pattern, {
        path: input.path,
        glob: input.glob,
        maxResults,
        signal: context.signal,
      });
      if (result.matches.length === 0) {
        const where = [input.path ? `in ${input.path}` : '', input.glob ? `in files matching ${input.glob}` : ''].filter(Boolean).join(' ');
        return `No matches for ${JSON.stringify(input.pattern)}${where ? ` ${where}` : ''}.`;
      }
      const lines = result.matches.map((match) => {
        const text = match.text.length > maxGrepLineLength ? `${match.text.slice(0, maxGrepLineLength)}… [cut]` : match.text;
        return `${match.path}:${match.line}: ${text}`;
      });
      if (result.truncated) {
        lines.push(`[Showing the first ${maxResults} matching lines; there are more. Narrow the pattern, the path or the glob.]`);
      }
      return lines.join('\n');
    },
  });
}
