/**
 * Which runner's output this is, and what it says. Runners are tried from the most specific output to
 * the least; output none of them recognises gives no counts (the check is then judged by its exit code).
 */
import { stripTerminalCodes } from '../commands/output-tail.js';
import { parseEslint, parseTsc } from './diagnostic-parsers.js';
import { parseJest, parseMocha, parseNodeTest, parseVitest } from './javascript-parsers.js';
import { parseCargoTest, parseGoTest, parsePytest } from './native-parsers.js';
import type { ParsedOutput } from './parsed-output.js';

export type { ParsedOutput } from './parsed-output.js';

const parsers = [parseVitest, parseJest, parsePytest, parseCargoTest, parseMocha, parseNodeTest, parseGoTest, parseEslint, parseTsc];

export function parseCheckOutput(output: string): ParsedOutput | undefined {
  const text = stripTerminalCodes(output).replace(/\r\n?/g, '\n');
  for (const parse of parsers) {
    const parsed = parse(text);
    if (parsed) return parsed;
  }
  return undefined;
}
