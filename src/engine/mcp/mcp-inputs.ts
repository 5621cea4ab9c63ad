/**
 * The variables a configured MCP server's values may hold, as VS Code's `.vscode/mcp.json` writes them:
 * `${workspaceFolder}` (the workspace root, which the sandbox maps to its copy) and `${input:id}`, a value
 * the user types when the server first starts (an API key: `"password": true`), declared in the file's
 * `inputs`. The answer is asked through the host (the CLI's terminal, VS Code's input box), kept for the
 * engine's life only, and never written to a log; a password is added to the secrets kept out of every
 * message. Any other `${…}` (`${env:TOKEN}`, Claude Code's `${TOKEN}`) is refused, not passed on as text:
 * agent-team gives a configured server none of the user's environment variables by name.
 */
import type { McpServerConfig } from '../roles/mcp-server-config.js';

/** One `promptString` input of `.vscode/mcp.json`. */
export interface McpInput {
  id: string;
  description: string;
  /** Typed without echo, and kept out of every message. Default false. */
  password: boolean;
  default?: string;
}

/** What the host is asked: the input, and whose server needs it. */
export interface McpInputRequest {
  server: string;
  file: string;
  input: McpInput;
}

/** Asks the user for an input's value; undefined when they did not give one (or cannot be asked here). */
export type McpInputAsker = (request: McpInputRequest, signal: AbortSignal) => Promise<string | undefined>;

const variablePattern = /\$\{([^}]*)\}/g;
const inputIdPattern = /^[A-Za-z0-9_.-]{1,64}$/;

/** The file's `inputs`, or why they cannot be used. */
export function readInputs(value: unknown): McpInput[] | string {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return "'inputs' must be a list";
  const inputs: McpInput[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return "each of 'inputs' must be an object with 'id'";
    const fields = entry as Record<string, unknown>;
    if (typeof fields.id !== 'string' || !inputIdPattern.test(fields.id))
      return "each of 'inputs' needs an 'id' of letters, digits, '.', '-' or '_'";
    // A pickString is skipped, not refused: only a server that names it is refused (as naming an undeclared input).
    if (fields.type !== undefined && fields.type !== 'promptString') continue;
    inputs.push({
      id: fields.id,
      description: typeof fields.description === 'string' ? fields.description.slice(0, 200) : fields.id,
      password: fields.password === true,
      ...(typeof fields.default === 'string' ? { default: fields.default } : {}),
    });
  }
  return inputs;
}

/** The settings with `${workspaceFolder}` replaced and `${input:id}` kept; the inputs named; or why not. */
export function substituteVariables(
  settings: Record<string, unknown>,
  place: { workspaceFolder: string; inputs: readonly McpInput[] },
): { value: Record<string, unknown>; inputs: McpInput[] } | string {
  const named = new Map<string, McpInput>();
  let refusal: string | undefined;
  const replace = (text: string): string =>
    text.replace(variablePattern, (whole, variable: string) => {
      if (variable === 'workspaceFolder') return place.workspaceFolder;
      const input = /^input:(.+)$/.exec(variable)?.[1];
      const declared = input === undefined ? undefined : place.inputs.find((each) => each.id === input);
      if (declared) {
        named.set(declared.id, declared);
        return whole;
      }
      refusal ??=
        input !== undefined
          ? `it names the input '${input}', which 'inputs' does not declare as a promptString`
          : `it uses ${whole}, which agent-team does not expand (a configured server gets none of your environment variables by name: give the value in 'env', or as an \${input:…})`;
      return whole;
    });
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return replace(value);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, walk(each)]));
    return value;
  };
  const value = walk(settings) as Record<string, unknown>;
  return refusal ?? { value, inputs: [...named.values()] };
}

/** The server's configuration with each `${input:id}` replaced by `answers`' value (every one is there). */
export function withInputs(config: McpServerConfig, answers: ReadonlyMap<string, string>): McpServerConfig {
  const fill = (text: string) =>
    text.replace(variablePattern, (whole, variable: string) => answers.get(variable.replace(/^input:/, '')) ?? whole);
  const fillMap = (map: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, fill(value)]));
  if (config.type === 'http') return { ...config, url: fill(config.url), headers: fillMap(config.headers) };
  return { ...config, command: fill(config.command), args: config.args.map(fill), env: fillMap(config.env) };
}
