/** The commands capability's vocabulary and settings: `Bash`, which commands run, and the boundary around them. */
import * as z from 'zod';
import { defineCapability, defineSetting } from '../capabilities/capability-descriptor.js';
import { storedStringList } from '../capabilities/stored-values.js';

// Every setting here is read from the user's own settings only: a folder must not allow its own commands,
// nor loosen the sandbox and the network around them.
export const commandsDescriptor = defineCapability({
  name: 'commands',
  tools: [{ name: 'Bash', purpose: 'run commands you allow, in a scratch copy' }],
  settings: {
    allowedCommands: defineSetting<string[]>({
      key: 'agentTeam.allowedCommands',
      schema: z.array(z.string()),
      default: [],
      description:
        "Commands agents may run with `Bash` without asking, e.g. `npm test`, `npm run *`, `node test/*.js` (`*` is a wildcard, `\\\\*` a star itself; `*` alone allows every command). A line is judged as bash parses it: it runs without asking only when each of its commands is made of literal words that match a pattern; substitutions, variables, globs, redirections to files and the like always ask. Commands run in a scratch copy of the workspace with the proposals applied, inside the OS sandbox (see `#agentTeam.sandbox#`). Any other command asks you first: Allow once, Always for this workspace, or Deny. Without a sandbox every command asks. Read from your user settings only: a folder's settings cannot allow its own commands.",
      scope: 'application',
      trust: 'user',
      read: storedStringList,
      cli: [
        {
          flag: '--allow-command',
          example: 'npm test',
          kind: 'repeatable',
          argument: '<pattern>',
          help: "a command agents may run with Bash, in a scratch copy of the workspace (repeatable; * is a wildcard: 'npm test', 'npm run *', '*' for all); any other command is refused",
        },
      ],
    }),
    sandbox: defineSetting<'auto' | 'off'>({
      key: 'agentTeam.sandbox',
      schema: z.enum(['auto', 'off']),
      default: 'auto',
      description:
        "Where agents' commands run. `auto`: in the OS sandbox (bubblewrap on Linux, Seatbelt on macOS) where the system has one: only the scratch copy is writable, your home and workspace folder are hidden, no network unless allowed, and nothing the command starts outlives it. Where there is none (no `bwrap`, Windows), every command asks, every time. `off`: commands run as you, with your files and network, when allowed. Read from your user settings only.",
      scope: 'application',
      trust: 'user',
      cli: [
        {
          flag: '--no-sandbox',
          kind: 'switch',
          sets: 'off',
          help: 'run commands without the OS sandbox, as you (where there is no sandbox, commands are refused unless this is given)',
        },
      ],
    }),
    commandNetwork: defineSetting<'off' | 'on'>({
      key: 'agentTeam.commandNetwork',
      schema: z.enum(['off', 'on']),
      default: 'off',
      description:
        '`on` gives every sandboxed command the network (package installs, downloads); `off` (default) gives none but the commands of `#agentTeam.networkCommands#`. The approval says when a command would get it. Read from your user settings only.',
      scope: 'application',
      trust: 'user',
      cli: [
        { flag: '--allow-network', kind: 'switch', sets: 'on', help: 'commands and hooks get the network in the sandbox (default: none)' },
      ],
    }),
    networkCommands: defineSetting<string[]>({
      key: 'agentTeam.networkCommands',
      schema: z.array(z.string()),
      default: [],
      description:
        "Agents' commands that get the network in the sandbox, as patterns like `#agentTeam.allowedCommands#`, e.g. `npm install`, `pip install *`. Never a hook, whatever its command: hooks get the network only with `#agentTeam.commandNetwork#` `on`. Read from your user settings only.",
      scope: 'application',
      trust: 'user',
      read: storedStringList,
      cli: [
        {
          flag: '--allow-network-command',
          example: 'npm install',
          kind: 'repeatable',
          argument: '<pattern>',
          help: "agents' commands matching this get the network in the sandbox (repeatable; never a hook, whatever its command)",
        },
      ],
    }),
    passEnvironment: defineSetting<string[]>({
      key: 'agentTeam.passEnvironment',
      schema: z.array(z.string()),
      default: [],
      description:
        "Environment variables agents' commands get besides the basics (`PATH`, the locale, the toolchains' locations, proxies without passwords), e.g. `NPM_CONFIG_REGISTRY`. A variable holding a configured API key is never passed. Read from your user settings only.",
      scope: 'application',
      trust: 'user',
      read: storedStringList,
      cli: [
        {
          flag: '--pass-env',
          example: 'NPM_CONFIG_REGISTRY',
          kind: 'repeatable',
          argument: '<NAME>',
          help: "a variable commands get (repeatable; by default they get only PATH, the locale, the toolchains' locations and proxies without passwords)",
        },
      ],
    }),
  },
});
