/**
 * The text of one unfinished line or JSON value, cut from a stream of chunks and kept only up to `maxChars`
 * [T3]: past that it is dropped on the spot and what follows is only counted, so a 50 MB line never sits in
 * memory. Shared by LineSplitter, JsonValueSplitter and KeyedArraySplitter.
 *
 * @example const t = new BoundedText(4); t.append('abcdef', 0, 3); t.take() === 'abc'; t.append('abcdef', 0, 6); t.take() === 6;
 */
export class BoundedText {
  private parts: string[] = [];
  private chars = 0;
  private skipping = false;
  private skippedChars = 0;

  constructor(private readonly maxChars: number) {}

  /** Nothing appended since the last take or clear. */
  get empty(): boolean {
    return this.chars === 0 && !this.skipping;
  }

  /** Appends `chunk[from, to)`. */
  append(chunk: string, from: number, to: number): void {
    const len = to - from;
    if (len <= 0) return;
    if (this.skipping) {
      this.skippedChars += len;
      return;
    }
    if (this.chars + len > this.maxChars) {
      this.skipping = true;
      this.skippedChars = this.chars + len;
      this.parts = [];
      this.chars = 0;
      return;
    }
    this.parts.push(from === 0 && to === chunk.length ? chunk : chunk.slice(from, to));
    this.chars += len;
  }

  /** The text appended so far, or — when it ran past the limit — the number of characters seen; then starts over. */
  take(): string | number {
    if (this.skipping) {
      const length = this.skippedChars;
      this.skipping = false;
      this.skippedChars = 0;
      return length;
    }
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.clear();
    return text;
  }

  /** Drops what was appended. */
  clear(): void {
    this.parts = [];
    this.chars = 0;
    this.skipping = false;
    this.skippedChars = 0;
  }
}
