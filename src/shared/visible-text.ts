/**
 * A command as the user must see it before allowing it: characters that show as nothing or as a space
 * (no-break and other Unicode spaces, zero-width characters, the braille blank), that reorder what follows
 * (bidirectional overrides) or that are controls are written by name, `⟨U+202E⟩`, so a line cannot read
 * differently from what runs. Line ends and tabs stay. Shared by the sidebar and @team.
 */

/** Code point ranges, inclusive, of the characters written by name. */
const hiddenRanges: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0xa0],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x1680, 0x1680],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x206f],
  [0x2800, 0x2800],
  [0x3000, 0x3000],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0xe0000, 0xe007f],
];

function isHidden(codePoint: number): boolean {
  return hiddenRanges.some(([first, last]) => codePoint >= first && codePoint <= last);
}

export function visibleText(text: string): string {
  let result = '';
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    result += isHidden(codePoint) ? `\u27E8U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}\u27E9` : character;
  }
  return result;
}
