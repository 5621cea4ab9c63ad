/** A prompt file's `tools` / `allowed-tools` in the engine's names: aliases by the file's product, patterns and MCP names kept, the rest reported. */
import { describe, expect, it } from 'vitest';
import { promptFileTools } from '../../src/engine/prompt-files/prompt-file-tools.js';
import { ToolAllowance } from '../../src/engine/skills/tool-allowance.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

describe('promptFileTools', () => {
  it("reads a VS Code prompt file's tool names and tool sets as ours, reporting those we lack", () => {
    const read = promptFileTools(
      {
        name: 'look',
        label: '.github/prompts/look.prompt.md',
        tools: ['codebase', 'search/usages', 'runCommands', 'githubRepo', 'mcp__calc__*'],
      },
      knownToolNames,
    );
    expect(read.allowedTools).toEqual(['Glob', 'Grep', 'Read', 'Bash', 'mcp__calc__*']);
    expect(read.warnings).toEqual([
      "/look (.github/prompts/look.prompt.md): 'githubRepo' is no tool of Agent Team, so it allows nothing; the run has only the other tools the file names",
    ]);
  });

  it("keeps a Claude Code command's patterns, maps its aliases, and leaves a file without tools to its role", () => {
    expect(
      promptFileTools(
        { name: 'status', label: '.claude/commands/status.md', tools: ['Bash(git status:*)', 'MultiEdit', 'Skill'] },
        knownToolNames,
      ),
    ).toEqual({ allowedTools: ['Bash(git status:*)', 'Edit', 'Skill'], warnings: [] });
    expect(promptFileTools({ name: 'any', label: '.claude/commands/any.md' }, knownToolNames)).toEqual({ warnings: [] });
  });
});

describe('ToolAllowance', () => {
  it('offers the listed tools (Bash with a pattern too) and always the ones that end or pause a task, permitting only matching calls', () => {
    const allowance = new ToolAllowance(['Read', 'Bash(git status:*)', 'mcp__calc__*']);
    expect(
      ['Read', 'Bash', 'mcp__calc__add', 'CompleteTask', 'AskUser', 'Skill', 'TodoWrite', 'Edit', 'Agent', 'mcp__web__get'].filter((name) =>
        allowance.offers(name),
      ),
    ).toEqual(['Read', 'Bash', 'mcp__calc__add', 'CompleteTask', 'AskUser', 'Skill', 'TodoWrite']);
    expect(allowance.permits({ toolCallId: '1', toolName: 'Bash', input: { command: 'git status -s' } })).toBe(true);
    expect(allowance.permits({ toolCallId: '2', toolName: 'Bash', input: { command: 'git push' } })).toBe(false);
  });
});
