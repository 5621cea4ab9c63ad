/**
 * A role's limits, result shape and metadata in a few words each, for where roles are listed (`agent-team
 * agents`, the extension's role picker). Metadata is the file author's: shown short, never in full.
 */
import type { RoleDefinition } from './types.js';

/** Metadata entries shown at most, and characters of each value. */
const shownMetadataEntries = 6;
const shownValueChars = 40;

export function roleNotes(
  role: Pick<RoleDefinition, 'permissionMode' | 'maxTokens' | 'inputSchema' | 'outputSchema' | 'metadata'>,
): string[] {
  const notes: string[] = [];
  if (role.permissionMode === 'plan') notes.push('permission mode: plan (read-only)');
  else if (role.permissionMode !== undefined && role.permissionMode !== 'default')
    notes.push(`permission mode: ${role.permissionMode} (not honoured: nothing is loosened)`);
  if (role.maxTokens !== undefined) notes.push(`token limit: ${role.maxTokens.toLocaleString('en-US')} for its task and subtasks`);
  if (role.inputSchema) notes.push('takes a JSON prompt (inputSchema)');
  if (role.outputSchema) notes.push('answers with JSON (outputSchema)');
  if (role.metadata && Object.keys(role.metadata).length > 0) notes.push(`metadata: ${describeMetadata(role.metadata)}`);
  return notes;
}

function describeMetadata(metadata: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(metadata);
  const shown = entries.slice(0, shownMetadataEntries).map(([key, value]) => `${key}=${shortValue(value)}`);
  if (entries.length > shownMetadataEntries) shown.push(`… ${entries.length - shownMetadataEntries} more`);
  return shown.join(', ');
}

function shortValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > shownValueChars ? `${oneLine.slice(0, shownValueChars - 1)}…` : oneLine;
}
