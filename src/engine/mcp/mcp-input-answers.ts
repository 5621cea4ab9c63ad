/**
 * The values the user gave for configured servers' `${input:id}`s, kept for the engine's life (VS Code
 * keeps them per file too: two servers of one file naming `${input:token}` ask once), in memory only. A
 * password's value is one of the engine's secrets from then on: kept out of every message and tool result.
 */
import type { McpConfigOrigin } from './mcp-config-files.js';
import type { McpInput, McpInputAsker } from './mcp-inputs.js';

export class McpInputAnswers {
  private readonly values = new Map<string, string>();
  private readonly passwords = new Set<string>();

  get(file: string, id: string): string | undefined {
    return this.values.get(JSON.stringify([file, id]));
  }

  set(file: string, input: McpInput, value: string): void {
    this.values.set(JSON.stringify([file, input.id]), value);
    if (input.password && value !== '') this.passwords.add(value);
  }

  /** The passwords given: for the engine's secrets. */
  secrets(): string[] {
    return [...this.passwords];
  }
}

/** A server's inputs' values by id (asked for those not given yet), or why one is missing. */
export async function resolveInputs(
  server: { name: string; file: string; origin: McpConfigOrigin; inputs: readonly McpInput[] },
  answers: McpInputAnswers,
  ask: McpInputAsker | undefined,
  signal: AbortSignal,
): Promise<Map<string, string> | string> {
  const resolved = new Map<string, string>();
  for (const input of server.inputs) {
    let value = answers.get(server.file, input.id);
    if (value === undefined && ask) {
      value = await ask({ server: server.name, file: server.file, input }, signal);
      if (value !== undefined) answers.set(server.file, input, value);
    }
    value ??= input.default;
    if (value === undefined)
      return `it needs the input '${input.id}' (${input.description}), and ${ask ? 'none was given' : 'nobody can be asked for it here'}`;
    resolved.set(input.id, value);
  }
  return resolved;
}
