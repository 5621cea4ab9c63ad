/**
 * The first-run question on a terminal: may this folder run what was just listed? Only a typed yes counts;
 * Enter, anything else, or the end of input is a no.
 */
import { createInterface } from 'node:readline';
import type { TrustQuestion } from './folder-trust.js';

export function terminalTrustQuestion(input: NodeJS.ReadableStream, output: { write(text: string): void }): TrustQuestion {
  return () =>
    new Promise<boolean>((resolve) => {
      output.write('Trust this folder and let it run these? [y/N] ');
      const reader = createInterface({ input, terminal: false });
      let answer: string | undefined;
      reader.once('line', (line) => {
        answer = line;
        reader.close();
      });
      // The end of input (Ctrl-D) closes without a line: a no.
      reader.once('close', () => resolve(answer !== undefined && /^\s*y(?:es)?\s*$/i.test(answer)));
    });
}

/** True when someone is at the terminal: stdin to answer from, stderr to read the question on. */
export function canAsk(stdin: object | undefined, stderr: { isTTY?: boolean }): boolean {
  return (stdin as { isTTY?: boolean } | undefined)?.isTTY === true && stderr.isTTY === true;
}
