/**
 * The one network decision for agents' commands and hooks: a pattern of `--allow-network-command` gives the
 * network to an agent's command as bash parses it, never to a hook, whatever the hook's command says.
 */
import { describe, expect, it } from 'vitest';
import { networkAllowed } from '../../src/engine/commands/command-network.js';
import type { SandboxState } from '../../src/engine/commands/sandbox/sandbox-state.js';

const sandboxed = {
  mode: 'sandbox',
  availability: { available: true, mechanism: 'bubblewrap', executable: '/usr/bin/bwrap' },
} as SandboxState;
const network = (all: boolean, patterns: string[]) => ({ all: () => all, patterns: () => patterns });

describe('which runs get the network in the sandbox', () => {
  it("gives an agent's command the network when a pattern matches it as parsed, and only then", async () => {
    const install = network(false, ['npm install']);
    expect(await networkAllowed(install, sandboxed, { kind: 'agent-command', command: 'npm install' })).toBe(true);
    expect(await networkAllowed(install, sandboxed, { kind: 'agent-command', command: 'npm install && curl http://x' })).toBe(false);
    // One argument that looks like two commands is still one command: not `npm install`.
    expect(await networkAllowed(install, sandboxed, { kind: 'agent-command', command: "npm 'install; curl x'" })).toBe(false);
    expect(await networkAllowed(network(false, []), sandboxed, { kind: 'agent-command', command: 'npm install' })).toBe(false);
  });

  it('never gives a hook the network through a pattern, even `*`; only when every command has it', async () => {
    expect(await networkAllowed(network(false, ['npm install']), sandboxed, { kind: 'hook' })).toBe(false);
    expect(await networkAllowed(network(false, ['*']), sandboxed, { kind: 'hook' })).toBe(false);
    expect(await networkAllowed(network(true, []), sandboxed, { kind: 'hook' })).toBe(true);
    expect(await networkAllowed(network(true, []), sandboxed, { kind: 'agent-command', command: 'curl x' })).toBe(true);
  });

  it('says true where no sandbox can take the network away (what the approval tells the user)', async () => {
    expect(await networkAllowed(network(false, []), { mode: 'off' }, { kind: 'hook' })).toBe(true);
    expect(
      await networkAllowed(network(false, []), { mode: 'unavailable', reason: 'no bwrap' }, { kind: 'agent-command', command: 'ls' }),
    ).toBe(true);
  });
});
