import * as z from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { defineTool } from '../../agent/tool.js';
import { type ChangeSetWorkspace } from '../change-set-workspace.js';

const globInput = builtOnFirstUse(() =>
  z.object({
    pattern: z.string().min(1).describe('A glob such as "**/*.ts" or "src/**/*.test.ts", matched against paths relative to `path`.'),
    path: z.string().optional().describe('The directory to search in (relative to the workspace root). Default: the workspace root.'),
  }),
);

export function createGlobTool(view: ChangeSetWorkspace, maxResults: number) {
  return defineTool({
    name: 'Glob',
    description:
      'Finds files by name pattern (glob syntax: * within a name, ** across directories, {a,b} alternatives). ' +
      'Returns workspace-relative paths, sorted. Skips node_modules, version-control folders and .gitignored files.',
    inputSchema: globInput(),
    readOnly: true,
    async execute(input, context) {
      const result = await view.glob(input.pattern, { path: input.path, maxResults, signal: context.signal });
      if (result.paths.length === 0) {
        return `No files match ${JSON.stringify(input.pattern)}${input.path ? ` in ${input.path}` : ''}.`;
      }
      const lines = [...result.paths];
      if (result.truncated) lines.push(`[Showing the first ${maxResults} files; more match. Narrow the pattern or the path.]`);
      return lines.join('\n');
    },
  });
}
