/**
 * A cheap estimate of how many tokens messages add to a request, between two of the provider's own counts.
 * Four characters a token is the usual rule for English and code; the meter uses it only for what was
 * added since the provider last counted, so its error stays small.
 */
import type { ModelMessage } from '../../model/types.js';

export const charactersPerToken = 4;

/** The characters of `messages` that reach the provider: texts, tool inputs and results. */
export function characterCount(messages: readonly ModelMessage[], from = 0): number {
  let characters = 0;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index]!;
    for (const part of message.content) {
      if (part.type === 'text') characters += part.text.length;
      else if (part.type === 'tool-result') characters += part.output.length + part.toolName.length;
      else if (part.type === 'tool-call') characters += JSON.stringify(part.input ?? {}).length + part.toolName.length;
      // An image costs about as much as a page of text whatever its bytes (providers scale images down).
      else characters += 1600 * charactersPerToken;
    }
  }
  return characters;
}

export function estimatedTokens(characters: number): number {
  return Math.ceil(characters / charactersPerToken);
}
