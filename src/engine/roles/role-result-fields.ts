/**
 * A role file's limits and result fields: `maxTokens` (adk-fluent's `max_tokens`), `outputSchema` /
 * `inputSchema` (ADK's `output_schema` / `input_schema`), `metadata` and Claude Code's `permissionMode`.
 * Read apart from the rest of the file's fields (their names are listed in role-file-locations.ts);
 * `parseRoleFile` copies what they give onto the role.
 */
import { type JsonSchema, schemaProblem } from './json-schema.js';
import { type PermissionMode, readPermissionMode } from './permission-mode.js';

/** Metadata keys at most, and its JSON length at most: it is shown beside the role, so it stays small. */
const maxMetadataKeys = 16;
const maxMetadataChars = 2_000;

export interface RoleResultFields {
  maxTokens?: number;
  outputSchema?: JsonSchema;
  inputSchema?: JsonSchema;
  metadata?: Readonly<Record<string, unknown>>;
  permissionMode?: PermissionMode;
}

type FieldReport = (field: string, message: string) => void;

export function readRoleResultFields(fields: Record<string, unknown>, errorAt: FieldReport, warnAt: FieldReport): RoleResultFields {
  const read: RoleResultFields = {};
  const tokensField = fields.maxTokens === undefined && fields.max_tokens !== undefined ? 'max_tokens' : 'maxTokens';
  const maxTokens = fields[tokensField];
  if (maxTokens !== undefined && maxTokens !== null) {
    if (typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0) read.maxTokens = maxTokens;
    else
      errorAt(
        tokensField,
        `'${tokensField}' must be a positive whole number of tokens (input and output of the role's task and its subtasks), got '${String(maxTokens)}'`,
      );
  }
  for (const [camel, snake, key] of [
    ['outputSchema', 'output_schema', 'outputSchema'],
    ['inputSchema', 'input_schema', 'inputSchema'],
  ] as const) {
    const field = fields[camel] === undefined && fields[snake] !== undefined ? snake : camel;
    const value = fields[field];
    if (value === undefined || value === null) continue;
    const problem = schemaProblem(value);
    if (problem === undefined) read[key] = plainFrozen(value) as JsonSchema;
    else errorAt(field, `'${field}' ${problem}`);
  }
  const metadata = readMetadata(fields.metadata);
  if (metadata.value) read.metadata = metadata.value;
  if (metadata.problem) warnAt('metadata', metadata.problem);
  const permission = readPermissionMode(fields.permissionMode);
  if (permission.mode !== undefined) read.permissionMode = permission.mode;
  for (const warning of permission.warnings) warnAt('permissionMode', warning);
  return read;
}

function readMetadata(value: unknown): { value?: Readonly<Record<string, unknown>>; problem?: string } {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    return { problem: "'metadata' must be a mapping of names to values; it is ignored" };
  const entries = Object.entries(value);
  if (entries.length > maxMetadataKeys)
    return { problem: `'metadata' has ${entries.length} entries, more than ${maxMetadataKeys}; it is ignored` };
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return { problem: "'metadata' must be plain data; it is ignored" };
  }
  if (text.length > maxMetadataChars)
    return { problem: `'metadata' is ${text.length} characters as JSON, more than ${maxMetadataChars}; it is ignored` };
  return { value: plainFrozen(value) as Record<string, unknown> };
}

/** A deep copy as plain JSON (YAML's aliases and dates made plain), frozen: roles are shared by every run. */
function plainFrozen(value: unknown): unknown {
  const freeze = (node: unknown): unknown => {
    if (typeof node === 'object' && node !== null) for (const child of Object.values(node)) freeze(child);
    return Object.freeze(node);
  };
  return freeze(JSON.parse(JSON.stringify(value)));
}
