import { BoundedText } from './boundedText.ts';

/** Receives the top-level JSON values a JsonValueSplitter cuts out of a stream of text. */
export interface JsonValueSink {
  /** The text of one whole top-level object or array, and the 1-based line it starts on. */
  value(text: string, line: number): void;
  /** A value longer than the limit: dropped as it streamed, `length` is what was seen. */
  tooLong(line: number, length: number): void;
  /** Text between values that is not whitespace (a stray character, a scalar): reported, skipped. */
  stray(line: number, text: string): void;
  /** The input ended inside a value (not one handed over as it streamed: its stream's end tells). */
  truncated(line: number): void;
  /**
   * A top-level object starts on `line`: a stream to hand its text over to as it comes, in place of holding it
   * whole for `value` (a value too big to hold, such as an OTLP request of a whole run); null to hold it.
   */
  open?(line: number): ValueStream | null;
}

/** The text of one JSON value, handed over in pieces as it streams; `end` after its last character (or the input's). */
export interface ValueStream {
  push(text: string): void;
  end(): void;
}

const QUOTE_OR_BACKSLASH = /["\\]/g;

/**
 * Cuts concatenated JSON values out of a stream of string chunks: JSON Lines, one pretty-printed object
 * after another (what the OpenTelemetry Python SDK's console exporter prints), or a single document all
 * split the same way, on brace depth, strings and escapes respected, in any chunking. Only the current
 * value is buffered, and only up to `maxChars`; past that it is dropped as it streams, never held whole.
 * (A document that is one array of records is cut into its elements by KeyedArraySplitter.)
 *
 * @example const s = new JsonValueSplitter(1e6, sink); s.push('{"a":1}{"b"'); s.push(':2}'); s.end();
 */
export class JsonValueSplitter {
  private readonly text: BoundedText;
  private depth = 0;
  private inString = false;
  private escape = false;
  private line = 1;
  private startLine = 1;
  private stopped = false;
  /** Where the current value's text goes when it is handed over as it streams. */
  private stream: ValueStream | null = null;

  constructor(
    maxChars: number,
    private readonly sink: JsonValueSink,
  ) {
    this.text = new BoundedText(maxChars);
  }

  stop(): void {
    this.stopped = true;
    this.text.clear();
  }

  push(chunk: string): void {
    let i = 0;
    let valueFrom = this.depth > 0 ? 0 : -1;
    const n = chunk.length;
    while (i < n && !this.stopped) {
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
          i++;
          continue;
        }
        QUOTE_OR_BACKSLASH.lastIndex = i;
        const m = QUOTE_OR_BACKSLASH.exec(chunk);
        if (!m) {
          i = n;
          break;
        }
        i = m.index + 1;
        if (m[0] === '\\') this.escape = true;
        else this.inString = false;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 10) this.line++;
      if (this.depth === 0) {
        if (c === 123 || c === 91) {
          this.depth = 1;
          this.startLine = this.line;
          valueFrom = i;
          if (c === 123 && this.sink.open) this.stream = this.sink.open(this.line);
        } else if (c !== 32 && c !== 10 && c !== 13 && c !== 9 && c !== 0xfeff) {
          const end = this.strayEnd(chunk, i);
          this.sink.stray(this.line, chunk.slice(i, Math.min(end, i + 80)));
          i = end;
          continue;
        }
        i++;
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) {
          this.keep(chunk, valueFrom, i + 1);
          this.emit();
          valueFrom = -1;
        }
      }
      i++;
    }
    // An unfinished value (a string included: strings only occur inside values) keeps its tail.
    if (this.depth > 0 && valueFrom !== -1 && !this.stopped) this.keep(chunk, valueFrom, n);
  }

  end(): void {
    if (this.stopped) return;
    if (this.stream) {
      // A value handed over as it streamed: its own reader tells whether it was whole.
      this.stream.end();
      this.stream = null;
    } else if (this.depth > 0) this.sink.truncated(this.startLine);
    this.text.clear();
  }

  private keep(chunk: string, from: number, to: number): void {
    if (this.stream) this.stream.push(chunk.slice(from, to));
    else this.text.append(chunk, from, to);
  }

  /** Stray text runs to the next newline or the next value. */
  private strayEnd(chunk: string, from: number): number {
    let j = from;
    while (j < chunk.length) {
      const c = chunk.charCodeAt(j);
      if (c === 10 || c === 123 || c === 91) break;
      j++;
    }
    return j;
  }

  private emit(): void {
    if (this.stream) {
      this.stream.end();
      this.stream = null;
      return;
    }
    const text = this.text.take();
    if (typeof text === 'number') this.sink.tooLong(this.startLine, text);
    else this.sink.value(text, this.startLine);
  }
}
