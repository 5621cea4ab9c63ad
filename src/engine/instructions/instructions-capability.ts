/**
 * Instruction files, as a capability: every agent's system prompt carries the project's and the user's
 * standing instructions (AGENTS.md, CLAUDE.md, Copilot's), and an agent that starts working in a folder
 * with rules of its own hears of them at its next turn. Its transcript names every file it got, so the
 * detail view and the trace show them. Where the workspace is not trusted, none is read.
 */
import path from 'node:path';
import type { ToolCallRequest } from '../agent/types.js';
import type { Capability } from '../capabilities/capability.js';
import { InstructionReader, type InstructionFile } from './instruction-reader.js';
import type { InstructionSource } from './instruction-sources.js';
import { type InstructionBatch, TaskInstructions } from './task-instructions.js';

export interface InstructionSettings {
  /** The workspace root. */
  root: string;
  /** The user's home, for their own files. Default: none read. */
  home?: string;
  /** The sources to read, at each task's start (`agentTeam.instructionFiles`, `--instruction-files`). */
  sources(): readonly InstructionSource[];
  /** False where the workspace is not trusted: a folder's files must not instruct agents there. */
  allowed(): boolean;
}

export function instructionsCapability(settings: InstructionSettings): Capability {
  return {
    name: 'instructions',
    async grant() {
      const sources = new Set(settings.sources());
      if (sources.size === 0 || !settings.allowed()) return undefined;
      const reader = new InstructionReader(settings.root, settings.home);
      const instructions = new TaskInstructions(reader, sources);
      const start = await instructions.start();
      const pending: string[] = [];
      return {
        ...(start.files.length > 0 ? { instructions: startText(start.files) } : {}),
        notices: describeBatch(start, 'Instruction files'),
        // Sees where the agent is about to work; what applies there comes with its next turn.
        reviewToolCalls: async (calls) => {
          const batch = await instructions.forPaths(targetsOf(calls, settings.root));
          if (batch.files.length > 0) pending.push(laterText(batch.files));
          pending.push(...describeBatch({ files: [], problems: batch.problems }, ''));
          return new Map();
        },
        takeNotices: () => pending.splice(0),
      };
    },
  };
}

function startText(files: readonly InstructionFile[]): string {
  const sections = files.map((file) => `## ${file.label}\n${file.text}`);
  return `# Instructions of the project and the user\nFollow these standing instructions (from the files named) as you work, unless the task says otherwise; the more specific file wins.\n\n${sections.join('\n\n')}`;
}

function laterText(files: readonly InstructionFile[]): string {
  const sections = files.map((file) => `## ${file.label}\n${file.text}`);
  return `You are working where more instruction files apply; follow them there (they win over broader ones):\n\n${sections.join('\n\n')}`;
}

/** The transcript's line: which files the agent got, and which it did not, with why. */
function describeBatch(batch: InstructionBatch, label: string): string[] {
  const lines = batch.files.length > 0 && label ? [`${label}: ${batch.files.map((file) => file.label).join(', ')}`] : [];
  return [...lines, ...batch.problems];
}

/** The workspace paths a turn's calls work on: files (`file_path`) and folders (`path`). */
function targetsOf(calls: readonly ToolCallRequest[], root: string): Array<{ path: string; folder: boolean }> {
  const targets: Array<{ path: string; folder: boolean }> = [];
  for (const call of calls) {
    const input = (call.input ?? {}) as { file_path?: unknown; path?: unknown };
    for (const [value, folder] of [
      [input.file_path, false],
      [input.path, true],
    ] as const) {
      if (typeof value !== 'string' || value === '') continue;
      const relative = path.isAbsolute(value) ? path.relative(root, value) : value;
      const normal = path.posix.normalize(relative.split(path.sep).join('/'));
      if (normal.startsWith('..') || path.isAbsolute(normal)) continue;
      targets.push({ path: normal, folder });
    }
  }
  return targets;
}
