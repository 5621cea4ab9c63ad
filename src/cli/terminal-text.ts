/**
 * Text that came from a model, a command, a file or a remote agent, made safe to print on a terminal.
 * Escape sequences in it are instructions to the terminal: OSC 52 writes the clipboard, OSC 0 the window
 * title, a CSI clears the screen or moves the cursor over what the user was reading, and a lone carriage
 * return or backspace overwrites it. They are removed; other control characters are shown as `�`, and
 * the bidirectional overrides that reorder what a diff shows ("Trojan Source") are shown by name. The
 * CLI's own colours are added after this, so they stay. Linear: one pass, no backtracking.
 */

const escape = '\u001b';
const bell = '\u0007';
const replacement = '\uFFFD';
/** Controls that reorder text: shown, so a reviewer sees them. */
const bidiControls = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function terminalSafe(text: string): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x1b || code === 0x9b || code === 0x9d || code === 0x90 || code === 0x98 || code === 0x9e || code === 0x9f) {
      index = endOfSequence(text, index);
      continue;
    }
    if (code === 0x0d && text[index + 1] === '\n') {
      // A Windows line end is a line end, not an overwrite.
      index++;
      continue;
    }
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) {
      result += replacement;
      index++;
      continue;
    }
    result += text[index];
    index++;
  }
  return result.replace(bidiControls, (character) => `<U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** The index just past the escape sequence that starts at `start` (ESC-based or its 8-bit C1 form). */
function endOfSequence(text: string, start: number): number {
  const code = text.charCodeAt(start);
  let kind: 'csi' | 'string' | 'single';
  let index: number;
  if (code === 0x9b) [kind, index] = ['csi', start + 1];
  else if (code !== 0x1b) [kind, index] = ['string', start + 1];
  else {
    const next = text[start + 1];
    if (next === '[') [kind, index] = ['csi', start + 2];
    else if (next === ']' || next === 'P' || next === 'X' || next === '^' || next === '_') [kind, index] = ['string', start + 2];
    else return Math.min(text.length, start + 2);
  }
  if (kind === 'csi') {
    // Parameters and intermediates (0x20–0x3f), then one final byte (0x40–0x7e); anything else ends a
    // malformed sequence there and is read as text.
    while (index < text.length) {
      const byte = text.charCodeAt(index);
      if (byte >= 0x40 && byte <= 0x7e) return index + 1;
      if (byte < 0x20 || byte > 0x3f) return index;
      index++;
    }
    return index;
  }
  // OSC, DCS, SOS, PM, APC: up to BEL, ST (ESC \) or the 8-bit ST. Unterminated, only the introducer
  // goes: swallowing the rest would let a model hide the tail of what the user reads.
  const introducerEnd = index;
  while (index < text.length) {
    const character = text[index];
    if (character === bell || character === '\u009c') return index + 1;
    if (character === escape && text[index + 1] === '\\') return index + 2;
    index++;
  }
  return introducerEnd;
}

/**
 * A JSON Lines event with the C1 controls and line separators escaped too (`JSON.stringify` escapes only
 * C0): the line stays valid JSON and holds no byte a terminal would act on when someone prints it.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\u202A-\u202E\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
