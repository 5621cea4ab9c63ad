/** The outcome of parsing the JSON text a model streamed as a tool call's input. */
export interface ParsedToolInput {
  /** The parsed value; undefined when the text was not valid JSON. */
  input: unknown;
  /** Why the text could not be parsed; absent on success. */
  inputError?: string;
}

/**
 * Parses a tool call's streamed input. Providers send `""` for a tool that takes no arguments, so empty
 * (or blank) text means `{}`. Invalid JSON is not thrown: the agent loop hands the model an error result
 * it can correct, instead of failing the whole run.
 */
export function parseToolInput(rawInput: string): ParsedToolInput {
  if (rawInput.trim() === '') return { input: {} };
  try {
    return { input: JSON.parse(rawInput) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { input: undefined, inputError: `the tool input is not valid JSON (${reason})` };
  }
}
