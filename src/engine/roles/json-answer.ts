/**
 * Finding the JSON in a model's answer, for roles with an `outputSchema`: the answer must end with one
 * JSON value. Models often put it in a fenced block, or after a sentence; both are accepted, as long as the
 * JSON is the last thing in the answer.
 */

/** The JSON value an answer ends with, or why none was found. */
export type JsonReading = { found: true; value: unknown } | { found: false; problem: string };

/** Starts tried as the beginning of the trailing JSON: bounds the work on a long answer full of brackets. */
const maxStarts = 64;

export function trailingJson(answer: string): JsonReading {
  const text = answer.trim();
  if (text === '') return { found: false, problem: 'the answer is empty' };
  const whole = parsed(text);
  if (whole.found) return whole;
  const fenced = lastFencedBlock(text);
  if (fenced !== undefined) {
    const inFence = parsed(fenced);
    if (inFence.found) return inFence;
    return { found: false, problem: `the fenced block at the end is not valid JSON (${inFence.problem})` };
  }
  for (const start of candidateStarts(text)) {
    const candidate = parsed(text.slice(start));
    if (candidate.found) return candidate;
  }
  return {
    found: false,
    problem: 'the answer does not end with a JSON value (an object or an array, on lines of its own, or in a ```json block)',
  };
}

/**
 * A prompt for a role with an `inputSchema`: JSON, alone or in one fenced block. Nothing else: the schema
 * says what the role needs, and a sentence around the JSON would not be checked.
 */
export function promptJson(prompt: string): JsonReading {
  const text = prompt.trim();
  const fenced = text.startsWith('```') ? lastFencedBlock(text) : undefined;
  const reading = parsed(fenced ?? text);
  return reading.found ? reading : { found: false, problem: `the prompt is not JSON (${reading.problem})` };
}

/**
 * Where the trailing JSON may begin, most likely first: each `{` or `[` after which the brackets balance
 * (counted without regard to strings, so a start inside a larger value, which leaves its closing brackets
 * over, is never tried), nearest the end first; then line starts, for JSON whose strings hold brackets.
 */
function candidateStarts(text: string): number[] {
  const balanced: number[] = [];
  let balance = 0;
  for (let index = text.length - 1; index >= 0 && balanced.length < maxStarts; index--) {
    const character = text[index];
    if (character === '}' || character === ']') balance--;
    else if (character === '{' || character === '[') {
      balance++;
      if (balance === 0) balanced.push(index);
    }
  }
  const lineStarts = [...text.matchAll(/(?:^|\n)[ \t]*(?=[{[])/g)]
    .map((match) => match.index + match[0].length)
    .reverse()
    .slice(0, maxStarts);
  return [...new Set([...balanced, ...lineStarts])];
}

/** The content of the fenced block the text ends with (its info string, like `json`, left out), if it ends with one. */
function lastFencedBlock(text: string): string | undefined {
  if (!text.endsWith('```') || text.length < 7) return undefined;
  const opening = text.lastIndexOf('```', text.length - 4);
  if (opening === -1) return undefined;
  const firstLineEnd = text.indexOf('\n', opening);
  if (firstLineEnd === -1 || firstLineEnd > text.length - 3) return undefined;
  // The info string is one word at most: a line with more is text, not the start of a fence.
  if (!/^```[A-Za-z0-9_-]*\s*$/.test(text.slice(opening, firstLineEnd))) return undefined;
  return text.slice(firstLineEnd + 1, text.length - 3).trim();
}

function parsed(text: string): JsonReading {
  try {
    return { found: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // JSON.parse's message can quote the text; only its position is kept.
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '');
    return { found: false, problem: position ? `invalid JSON at character ${position[1]}` : 'invalid JSON' };
  }
}
