import { BoundedText } from './boundedText.ts';

/** Receives the lines a LineSplitter cuts out of a stream of text chunks. */
export interface LineSink {
  /** A whole line, without its `\n` (a trailing `\r` is removed). `terminated` is false for a last line with no `\n`. */
  line(text: string, lineNo: number, terminated: boolean): void;
  /** A line longer than the limit: it was skipped without being kept whole; `length` is what was seen. */
  tooLong(lineNo: number, length: number, terminated: boolean): void;
}

/**
 * Cuts a stream of string chunks into lines [T3]. Only the current unfinished line is buffered, and only up
 * to `maxChars`: past that the line is dropped on the spot and its remaining chunks are only counted, so a
 * 50 MB line never sits in memory. Works the same whether chunks split lines, CRLF pairs or nothing.
 *
 * @example const s = new LineSplitter(1e6, sink); s.push('{"a":1}\n{"b"'); s.push(':2}\n'); s.end();
 */
export class LineSplitter {
  private readonly text: BoundedText;
  private lineNo = 0;
  private stopped = false;

  constructor(
    maxChars: number,
    private readonly sink: LineSink,
  ) {
    this.text = new BoundedText(maxChars);
  }

  /** Lines completed so far (the next line's number minus one). */
  get lines(): number {
    return this.lineNo;
  }

  /** Stops cutting lines: later chunks are ignored (after a fatal problem). */
  stop(): void {
    this.stopped = true;
    this.text.clear();
  }

  push(chunk: string): void {
    let start = 0;
    while (!this.stopped) {
      const nl = chunk.indexOf('\n', start);
      if (nl === -1) {
        this.text.append(chunk, start, chunk.length);
        return;
      }
      this.text.append(chunk, start, nl);
      this.flush(true);
      start = nl + 1;
    }
  }

  /** Flushes a last line that has no `\n`. */
  end(): void {
    if (this.stopped) return;
    if (!this.text.empty) this.flush(false);
  }

  private flush(terminated: boolean): void {
    this.lineNo++;
    let text = this.text.take();
    if (typeof text === 'number') {
      this.sink.tooLong(this.lineNo, text, terminated);
      return;
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    this.sink.line(text, this.lineNo, terminated);
  }
}
