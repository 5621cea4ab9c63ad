/** The instruction-files capability's settings: which sources of instruction files agents follow. It has no tool. */
import * as z from 'zod';
import { defineCapability, defineSetting, InvalidSettingError } from '../capabilities/capability-descriptor.js';
import { type InstructionSource, instructionSources, isInstructionSource } from './instruction-sources.js';

/** `--instruction-files agents,claude` (or `none`); an unknown source is refused rather than read as none. */
function sourcesOption(texts: readonly string[]): InstructionSource[] {
  const text = texts.at(-1) ?? '';
  if (text.trim() === 'none') return [];
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !isInstructionSource(name));
  if (unknown !== undefined || names.length === 0)
    throw new InvalidSettingError(
      `--instruction-files takes ${instructionSources.join(', ')} (comma-separated) or none, not "${unknown ?? text}"`,
    );
  return [...new Set(names.filter(isInstructionSource))];
}

/** The known sources of a stored list; not a list at all: every source (the default). */
function storedSources(value: unknown): InstructionSource[] {
  return Array.isArray(value) ? [...new Set(value.filter(isInstructionSource))] : [...instructionSources];
}

export const instructionsDescriptor = defineCapability({
  name: 'instructions',
  tools: [],
  settings: {
    instructionFiles: defineSetting<InstructionSource[]>({
      key: 'agentTeam.instructionFiles',
      schema: z.array(z.enum(instructionSources)),
      default: [...instructionSources],
      description:
        'The instruction files agents follow, by source: `agents` (`AGENTS.md` at the root, and in a folder once an agent works there), `claude` (`CLAUDE.md`, `CLAUDE.local.md`), `copilot` (`.github/copilot-instructions.md`, `.github/instructions/*.instructions.md` by their `applyTo`), `user` (`~/.agent-team/AGENTS.md`, `~/.claude/CLAUDE.md`). An empty list: no file. In Restricted Mode none is read.',
      scope: 'window',
      // Any scope: a folder may only narrow what its agents read, and an untrusted one is read not at all.
      trust: 'any',
      read: storedSources,
      cli: [
        {
          flag: '--instruction-files',
          example: 'agents,claude',
          kind: 'value',
          argument: '<sources>',
          parse: sourcesOption,
          help: "the instruction files agents follow: agents (AGENTS.md), claude (CLAUDE.md, CLAUDE.local.md), copilot (.github's), user (~/.agent-team/AGENTS.md, ~/.claude/CLAUDE.md), comma-separated; none: no file (default: all four)",
        },
      ],
    }),
  },
});
