import * as z from 'zod';
import type { ToolDefinition } from '../model/types.js';

/** What a tool is handed besides its input. */
export interface ToolContext {
  /** Aborted when the run is stopped or the tool passes its timeout. */
  signal: AbortSignal;
  toolCallId: string;
}

/**
 * A tool the model may call. The input schema is zod: the model sees JSON Schema generated from it, and
 * the agent loop validates the model's input against it before `execute` runs.
 */
export interface Tool<Input = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema the model sees, when the tool is described elsewhere (an MCP server's tool): then
   * `inputSchema` only checks the input's outline and the tool's owner checks the rest. Default: from zod.
   */
  jsonSchema?: Record<string, unknown>;
  /** True when the tool never changes anything (reads, searches). Read-only roles get only these. */
  readOnly: boolean;
  /** How long one call may take before it becomes an error result. Default: the loop's (120 s). */
  timeoutMs?: number;
  /** Returns the text the model reads back. Throwing makes an error result the model can act on. */
  execute(input: Input, context: ToolContext): Promise<string>;
  /**
   * A successful call ends the run once its turn's calls are done (`CompleteTask`, `SubmitPlan`): the run
   * is `completed` with what this returns as its output, and `AgentRunResult.endedBy` is the call.
   * Default: the run goes on.
   */
  endsRun?(input: Input): string;
}

/** Defines a tool with its input type inferred from the schema. */
export function defineTool<Schema extends z.ZodType>(tool: {
  name: string;
  description: string;
  inputSchema: Schema;
  readOnly: boolean;
  timeoutMs?: number;
  execute(input: z.infer<Schema>, context: ToolContext): Promise<string>;
  endsRun?(input: z.infer<Schema>): string;
}): Tool<z.infer<Schema>> {
  return tool as Tool<z.infer<Schema>>;
}

/** The definition the model sees: name, description and the JSON Schema of the input. */
export function toToolDefinition(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.jsonSchema ?? jsonSchemaOf(tool.inputSchema) };
}

/**
 * Converting a zod schema costs more than the rest of a delegation put together (B1 in
 * docs/performance.md), and every task builds the same tools, so each schema is converted once. The
 * result is shared: provider adapters only serialize it.
 */
const jsonSchemas = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

function jsonSchemaOf(inputSchema: z.ZodType): Record<string, unknown> {
  let schema = jsonSchemas.get(inputSchema);
  if (!schema) {
    // Without `$schema` (the providers want the object alone), taken out by a copy: a `delete` would leave
    // the object in V8's slow dictionary form, which every request's JSON.stringify then pays for.
    const { $schema: _dialect, ...converted } = z.toJSONSchema(inputSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
    schema = converted;
    jsonSchemas.set(inputSchema, schema);
  }
  return schema as Record<string, unknown>;
}
