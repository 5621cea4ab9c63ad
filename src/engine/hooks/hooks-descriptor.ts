/** The hooks capability's settings: whether the settings files' hooks run. It has no tool of its own. */
import * as z from 'zod';
import { defineCapability, defineSetting } from '../capabilities/capability-descriptor.js';

export const hooksDescriptor = defineCapability({
  name: 'hooks',
  tools: [],
  settings: {
    hooks: defineSetting<boolean>({
      key: 'agentTeam.hooks',
      schema: z.boolean(),
      default: true,
      description:
        "Run the hooks of Claude Code's settings files (`.claude/settings.json`, `.claude/settings.local.json`, `.agent-team/settings.json`, and your own `~/.claude/settings.json`, `~/.agent-team/settings.json`): `PreToolUse` (may block a call), `PostToolUse` (a formatter's version of an edited file becomes the proposal), `Stop`, `SubagentStop`, `UserPromptSubmit`. They run like agents' commands: in the scratch copy, in the OS sandbox. Off in any scope turns them off. In Restricted Mode none runs.",
      scope: 'window',
      // A folder may turn its hooks off, never back on when the user turned them off.
      trust: 'off-wins',
      cli: [
        {
          flag: '--no-hooks',
          kind: 'switch',
          sets: false,
          help: "run no hook of .claude/settings.json, .agent-team/settings.json or the user's own (by default they run like commands: in the scratch copy, in the sandbox)",
        },
      ],
    }),
  },
});
