/**
 * Checking a role's answer against its `outputSchema`, and a prompt against its `inputSchema`: what the
 * repair turn tells the model, what fails the task, and the JSON text a parent gets as the result.
 */
import { promptJson, trailingJson } from './json-answer.js';
import type { JsonSchema, SchemaCheck } from './json-schema.js';

/** An answer checked: the JSON text to hand on, or what is wrong (`repairable`: false when no answer could pass). */
export type AnswerCheck = { ok: true; json: string } | { ok: false; problems: string[]; repairable: boolean };

export async function checkAnswer(schema: JsonSchema, answer: string): Promise<AnswerCheck> {
  const reading = trailingJson(answer);
  if (!reading.found) return { ok: false, problems: [reading.problem], repairable: true };
  const check = await usable(schema, 'outputSchema');
  if (typeof check === 'string') return { ok: false, problems: [check], repairable: false };
  const problems = check(reading.value);
  // Pretty-printed, as one value: the parent (and a protocol server's client) parses it as it is.
  return problems.length === 0 ? { ok: true, json: JSON.stringify(reading.value, null, 2) } : { ok: false, problems, repairable: true };
}

/** Why `prompt` is not a valid input for a role with `schema`, or undefined when it is. */
export async function promptProblem(schema: JsonSchema, prompt: string): Promise<string | undefined> {
  const reading = promptJson(prompt);
  if (!reading.found) return reading.problem;
  const check = await usable(schema, 'inputSchema');
  if (typeof check === 'string') return check;
  const problems = check(reading.value);
  return problems.length === 0 ? undefined : `the prompt does not match the role's inputSchema: ${problems.join('; ')}`;
}

/** The message the agent gets when its answer does not pass: once, before the task fails. */
export function repairRequest(problems: readonly string[]): string {
  return [
    "Your final answer must end with one JSON value that matches your role's output schema (see your instructions). It does not:",
    ...problems.map((problem) => `- ${problem}`),
    'Answer again, ending with the corrected JSON: one value, alone or in a ```json block. This is the last chance before your task fails.',
  ].join('\n');
}

/** The instruction that tells an agent the shape of its answer. */
export function outputInstruction(schema: JsonSchema): string {
  return `# The shape of your answer\nEnd your final answer with one JSON value that matches this JSON Schema. That JSON is your whole result: the agent that started you receives it, and nothing else of your answer.\n\`\`\`json\n${JSON.stringify(schema)}\n\`\`\``;
}

async function usable(schema: JsonSchema, field: string): Promise<SchemaCheck | string> {
  try {
    // Loaded on first use: Ajv is large, and most runs have no role with a schema (B5 in docs/performance.md).
    const { schemaCheck } = await import('./json-schema.js');
    return await schemaCheck(schema);
  } catch (error) {
    // RE2 refuses what it cannot run in linear time (lookarounds, backreferences): the file must change.
    return `the role's ${field} cannot be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}
