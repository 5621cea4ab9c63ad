/**
 * Copilot's path-specific instructions (`.github/instructions/*.instructions.md`): front matter with
 * `applyTo`, one glob or several separated by commas, then the instructions. A file without `applyTo` is
 * applied only when a user attaches it by hand, so agents do not get it.
 */
import { compileGlob, type GlobMatcher } from '../workspace/glob/glob-matcher.js';
import { copilotInstructionsFolder, copilotInstructionsSuffix } from './instruction-sources.js';
import type { InstructionFile, InstructionReader } from './instruction-reader.js';

export interface ScopedInstructions {
  file: InstructionFile;
  /** True when it applies to every file (`**`): it is given at the start. */
  everywhere: boolean;
  applies: GlobMatcher;
}

/** The path-specific files of the workspace, each with what it applies to; problems for the unreadable. */
export async function readCopilotInstructions(reader: InstructionReader): Promise<{ scoped: ScopedInstructions[]; problems: string[] }> {
  const scoped: ScopedInstructions[] = [];
  const problems: string[] = [];
  const { splitFrontMatter, parseYamlHeader } = await import('../roles/front-matter.js');
  for (const name of (await reader.list(copilotInstructionsFolder)).filter((entry) => entry.endsWith(copilotInstructionsSuffix))) {
    const outcome = await reader.workspaceFile(`${copilotInstructionsFolder}/${name}`);
    if (!outcome) continue;
    if ('problem' in outcome) {
      problems.push(outcome.problem);
      continue;
    }
    const split = splitFrontMatter(outcome.file.text);
    if (!split.ok) continue;
    const header = parseYamlHeader(split.value);
    const applyTo = header.ok ? header.value.fields.applyTo : undefined;
    if (typeof applyTo !== 'string' || applyTo.trim() === '') continue;
    const globs = applyTo
      .split(',')
      .map((glob) => glob.trim())
      .filter((glob) => glob !== '');
    try {
      const matchers = await Promise.all(globs.map((glob) => compileGlob(glob)));
      scoped.push({
        file: { label: outcome.file.label, text: split.value.body.trim() },
        everywhere: globs.some((glob) => glob === '**' || glob === '**/*'),
        applies: (path) => matchers.some((matches) => matches(path)),
      });
    } catch (error) {
      problems.push(
        `${outcome.file.label} was not used: its applyTo is not a glob (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
  return { scoped, problems };
}
