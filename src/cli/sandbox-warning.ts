/** What the CLI says on stderr about the sandbox before a run starts. */
import type { DisposableCommandHost } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

/**
 * Said at the start of every run without a sandbox, whether or not commands are allowed: then nothing the
 * folder holds runs (no hook, no MCP server that starts a program, no command), or, with --no-sandbox,
 * all of it runs as the user.
 */
export async function warnWithoutSandbox(
  commands: Pick<DisposableCommandHost, 'sandbox'>,
  options: { noHooks?: boolean; stderr: { write(text: string): void } },
): Promise<void> {
  const state = await commands.sandbox();
  if (state.mode === 'unavailable') {
    options.stderr.write(
      `agent-team: no OS sandbox here (${terminalSafe(state.reason)}): no hook runs, no MCP server that starts a program starts, and commands agents want to run are refused; --no-sandbox runs them without a sandbox, as you.\n`,
    );
  } else if (state.mode === 'off') {
    const others = options.noHooks ? 'so do MCP servers' : 'so do hooks and MCP servers';
    options.stderr.write(`agent-team: --no-sandbox: allowed commands run as you, with your files and your network; ${others}.\n`);
  }
}
