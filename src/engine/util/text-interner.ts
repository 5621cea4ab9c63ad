/**
 * One copy of texts that arrive again and again: agents read the same files over and over (every subagent
 * reads the code it was sent to), and a long history would otherwise hold each read as a string of its
 * own (B6 in docs/performance.md). Texts are looked up by content; the most recently seen `capacity` are
 * kept, so the table itself never grows without bound.
 */
export class TextInterner {
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly capacity = 1_000,
    /** Shorter texts are handed back as they are: their copies cost less than looking them up. */
    private readonly minimumLength = 512,
  ) {}

  /** The copy already held of `text`, or `text` itself, now held. */
  intern(text: string): string {
    if (text.length < this.minimumLength) return text;
    const held = this.texts.get(text);
    if (held !== undefined) {
      // Seen again: it moves to the young end, so a file read all the time is never evicted.
      this.texts.delete(held);
      this.texts.set(held, held);
      return held;
    }
    this.texts.set(text, text);
    if (this.texts.size > this.capacity) this.texts.delete(this.texts.keys().next().value as string);
    return text;
  }
}
