/**
 * Where agents' standing instructions come from: the files every tool in the field reads, so a project
 * written for Codex, Claude Code or Copilot keeps its rules (the test command, the style, the folders not
 * to touch) when Agent Team works in it.
 */

/** `agents`: AGENTS.md (Codex, Copilot, Cursor…); `claude`: CLAUDE.md; `copilot`: .github's; `user`: the user's own. */
export const instructionSources = ['agents', 'claude', 'copilot', 'user'] as const;

export type InstructionSource = (typeof instructionSources)[number];

export function isInstructionSource(value: unknown): value is InstructionSource {
  return typeof value === 'string' && (instructionSources as readonly string[]).includes(value);
}

/** The files at the workspace root every agent gets, in order, by source. */
export const rootFiles: ReadonlyArray<{ source: InstructionSource; path: string }> = [
  { source: 'agents', path: 'AGENTS.md' },
  { source: 'claude', path: 'CLAUDE.md' },
  { source: 'claude', path: 'CLAUDE.local.md' },
  { source: 'copilot', path: '.github/copilot-instructions.md' },
];

/** The files of a folder below the root, given to an agent when it first works on something in that folder. */
export const nestedFiles: ReadonlyArray<{ source: InstructionSource; name: string }> = [
  { source: 'agents', name: 'AGENTS.md' },
  { source: 'claude', name: 'CLAUDE.md' },
];

/** Copilot's path-specific instructions: each applies to the files its `applyTo` globs match. */
export const copilotInstructionsFolder = '.github/instructions';
export const copilotInstructionsSuffix = '.instructions.md';

/** The user's own, in their home folder: ours, then Claude Code's. */
export const userFiles: ReadonlyArray<{ source: InstructionSource; path: string }> = [
  { source: 'user', path: '.agent-team/AGENTS.md' },
  { source: 'user', path: '.claude/CLAUDE.md' },
];

/** One file is cut past this; instruction files are prose, and every request carries them. */
export const maxInstructionFileBytes = 32 * 1024;

/** All of one agent's instruction files together at most; files past it are named, not given. */
export const maxInstructionBytesPerTask = 64 * 1024;
