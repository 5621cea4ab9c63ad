/**
 * A new role file from a short form (name, description, tools, model): the front matter written by the
 * YAML library (loaded on first use), so any description reads back as typed, and a body to edit. The
 * file parses as a sound role as it is (test/roles/new-role-file.test.ts).
 */
import type { ToolName } from './tool-names.js';

export interface NewRoleForm {
  name: string;
  description: string;
  tools: readonly ToolName[];
  /** Empty or absent: the run's model. */
  model?: string;
}

/** Where new roles go: Agent Team's own format. */
export const newRoleDirectory = '.agent-team/agents';

const namePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Why a name cannot be a role's, or undefined when it can. */
export function roleNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'A role needs a name.';
  if (!namePattern.test(name.trim())) return 'Letters, digits, - and _, starting with a letter (at most 64).';
  return undefined;
}

/** Why a description cannot be a role's, or undefined when it can. */
export function roleDescriptionProblem(description: string): string | undefined {
  if (description.trim() === '') return 'Say what the role does and when to use it: the coordinator chooses roles by it.';
  if (description.length > 1_000) return 'Keep it under 1,000 characters: every coordinator request carries it.';
  return undefined;
}

export async function newRoleFileText(form: NewRoleForm): Promise<string> {
  const loaded = await import('yaml');
  // Imported from the CommonJS vendor bundle, the named exports may sit under `default`.
  const stringify = loaded.stringify ?? loaded.default.stringify;
  const model = form.model?.trim();
  const header = stringify({
    name: form.name.trim(),
    description: form.description.trim(),
    tools: [...form.tools],
    ...(model ? { model } : {}),
  });
  const body = [
    `You are the ${form.name.trim()} of a software team. ${form.description.trim()}`,
    '',
    'How to work',
    '- Read the code that matters before you conclude; give file:line references.',
    '- Keep to the task you were given; say what you did not do, and why.',
    '',
    'Your answer',
    'Your final message is all whoever gave you the task sees: lead with the result, then the evidence.',
    '',
  ].join('\n');
  return `---\n${header}---\n${body}`;
}
