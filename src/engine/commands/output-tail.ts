/**
 * The end of a stream, kept as it arrives: a command that prints a gigabyte holds at most `maxBytes` here
 * (the limit is enforced where the data enters, not when the result is shown). The end is what an agent
 * needs from a test run or a build: the summary and the failures are printed last.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private keptBytes = 0;
  /** Every byte that arrived, kept or not. */
  totalBytes = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    const piece = chunk.length > this.maxBytes ? chunk.subarray(chunk.length - this.maxBytes) : chunk;
    this.chunks.push(piece);
    this.keptBytes += piece.length;
    while (this.keptBytes - this.chunks[0].length >= this.maxBytes) {
      this.keptBytes -= this.chunks[0].length;
      this.chunks.shift();
    }
    if (this.chunks.length > 64) this.chunks = [Buffer.concat(this.chunks)];
  }

  /** The kept end as text, without terminal colour codes, and the note when the start was dropped. */
  text(): { text: string; droppedBytes: number } {
    let buffer = Buffer.concat(this.chunks);
    if (buffer.length > this.maxBytes) buffer = buffer.subarray(buffer.length - this.maxBytes);
    const droppedBytes = this.totalBytes - buffer.length;
    // A cut in the middle of a UTF-8 character would show as a replacement mark: start at the next one.
    let start = 0;
    if (droppedBytes > 0) while (start < buffer.length && start < 4 && (buffer[start] & 0xc0) === 0x80) start++;
    return { text: stripTerminalCodes(buffer.subarray(start).toString('utf8')), droppedBytes: droppedBytes + start };
  }
}

// eslint-disable-next-line no-control-regex
const terminalCodes = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\r(?!\n)/g;

/** Removes colour and cursor codes (and bare carriage returns of progress bars) that read as noise. */
export function stripTerminalCodes(text: string): string {
  return text.replace(terminalCodes, (match) => (match === '\r' ? '\n' : ''));
}
