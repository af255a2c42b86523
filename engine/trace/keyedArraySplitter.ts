import { BoundedText } from './boundedText.ts';
import type { ValueStream } from './jsonValueSplitter.ts';

/** Receives what a KeyedArraySplitter cuts out of a document that is one JSON object (or one array, as `root`'s). */
export interface KeyedArraySink {
  /** A member of the object other than a streamed array: its key, its value's text, the line the value starts on. */
  member(key: string, text: string, line: number): void;
  /** The array under a streamed key opens (it may have no element). */
  array(key: string): void;
  /** One element of the array under a streamed key, in order. */
  element(key: string, text: string, line: number): void;
  /** A member value or an element longer than the limit: dropped as it streamed, `length` is what was seen. */
  tooLong(key: string, element: boolean, line: number, length: number): void;
  /** Text that is not where the object's grammar allows it (outside the object, or between its members): skipped. */
  stray(line: number, text: string): void;
  /** The input ended inside a member value or an element. */
  truncated(key: string, element: boolean, line: number): void;
  /** The input ended after the last whole member or element, before the closing `]` or `}`. */
  unclosed(line: number): void;
  /** A key the object already had, at the line its value starts: that value was skipped, not held. */
  repeated(key: string, line: number): void;
  /**
   * An element of the array under a streamed key that is an object starts on `line`: a stream to hand its text
   * over to as it comes, in place of `element` (an element too big to hold, cut further by another splitter); null
   * to hold it. When the input ends inside it, its stream ends and `truncated` is not called.
   */
  open?(key: string, line: number): ValueStream | null;
}

const QUOTE_OR_BACKSLASH = /["\\]/g;
/** Where the splitter is in the object's own grammar (the text of a value is cut apart from it). */
type Outer = 'before' | 'key' | 'inKey' | 'colon' | 'value' | 'after' | 'elements' | 'closed';

/**
 * Cuts a document that is one JSON object, `{"info": {…}, "messages": [e1, e2, …], …}`, into its members, and
 * the array under each of `streamed` keys into its elements, as the text streams in chunks of any size [I1].
 * Only the current member value or element is held as text, up to `maxChars`; past that it is dropped as it
 * streams. Strings and escapes are respected in keys and values alike. The brackets, commas and colons of the
 * object and of a streamed array are not values; a member that is not an array under a streamed key (`null`)
 * is an ordinary member. What the object's grammar does not allow is reported as stray and skipped; JSON.parse
 * of each cut text checks the rest. A key the object already had is reported (`repeated`) and its value skipped
 * as it streams: the first value's records may be read by then, so the last cannot win as in JSON.parse.
 *
 * With `root`, a document that is one JSON array streams too, its elements given as `root`'s (Cline's task files,
 * OpenHands event arrays); what follows its closing `]` is stray.
 *
 * @example new KeyedArraySplitter(new Set(['messages']), 1e6, sink).push('{"info":{},"messages":[{"a":1},2]}');
 */
export class KeyedArraySplitter {
  private readonly text: BoundedText;
  private outer: Outer = 'before';
  private key = '';
  private readonly keyText: string[] = [];
  /** The value being cut: a member's or an element's; `depth` counts its open brackets, 0 for a scalar. */
  private cutting: 'member' | 'element' | null = null;
  private depth = 0;
  private inString = false;
  private escape = false;
  private line = 1;
  private startLine = 1;
  /** The object's keys so far, and whether the value being cut is a repeated key's (skipped, not held). */
  private readonly keys = new Set<string>();
  private skipping = false;
  /** The document is one array (given as `root`'s), not an object. */
  private rootArray = false;
  /** Where the current element's text goes when it is handed over as it streams (KeyedArraySink.open). */
  private stream: ValueStream | null = null;

  /** `firstLine`: the line the text starts on (an object cut out of a bigger document starts on its line). */
  constructor(
    private readonly streamed: ReadonlySet<string>,
    maxChars: number,
    private readonly sink: KeyedArraySink,
    private readonly root: string | null = null,
    firstLine = 1,
  ) {
    this.text = new BoundedText(maxChars);
    this.line = firstLine;
    this.startLine = firstLine;
  }

  push(chunk: string): void {
    let i = 0;
    let from = this.cutting ? 0 : -1;
    const n = chunk.length;
    while (i < n) {
      if (this.inString) {
        i = this.skipString(chunk, i, from);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 10) this.line++;
      if (this.cutting) {
        if (this.depth === 0 && (c === 44 || c === 125 || c === 93)) {
          // A scalar ends before the comma or bracket that follows it; the outer grammar reads that one.
          this.keep(chunk, from, i);
          this.emit();
          from = -1;
          continue;
        }
        if (c === 34) this.inString = true;
        else if (c === 123 || c === 91) this.depth++;
        else if ((c === 125 || c === 93) && --this.depth === 0) {
          this.keep(chunk, from, i + 1);
          this.emit();
          from = -1;
        }
        i++;
        continue;
      }
      if (c === 32 || c === 10 || c === 13 || c === 9 || (c === 0xfeff && this.outer === 'before')) {
        i++;
        continue;
      }
      const next = this.outerStep(c);
      if (next === 'stray') {
        const end = Math.max(this.strayEnd(chunk, i), i + 1);
        this.sink.stray(this.line, chunk.slice(i, Math.min(end, i + 80)));
        i = end;
        continue;
      }
      if (next === 'cut') {
        from = i;
        this.startLine = this.line;
        if (c === 34) this.inString = true;
        else if (c === 123 || c === 91) this.depth = 1;
        if (c === 123 && this.cutting === 'element' && this.sink.open) this.stream = this.sink.open(this.key, this.line);
      }
      i++;
    }
    if (this.cutting && from !== -1) this.keep(chunk, from, n);
  }

  private keep(chunk: string, from: number, to: number): void {
    if (this.stream) this.stream.push(chunk.slice(from, to));
    else if (!this.skipping) this.text.append(chunk, from, to);
  }

  end(): void {
    if (this.stream) {
      this.stream.end();
      this.stream = null;
      this.cutting = null;
    } else if (this.cutting) {
      const key = this.key;
      const element = this.cutting === 'element';
      if (this.depth === 0 && !this.inString) {
        // A scalar running to the end of the input: whole or not, JSON.parse of its text says.
        this.emit();
        this.sink.unclosed(this.line);
      } else {
        this.text.clear();
        this.cutting = null;
        this.skipping = false;
        this.sink.truncated(key, element, this.startLine);
      }
    } else if (this.outer !== 'before' && this.outer !== 'closed') this.sink.unclosed(this.line);
    this.inString = false;
  }

  /** One character of the object's own grammar (not blank): the next state, `cut` when a value starts, or `stray`. */
  private outerStep(c: number): 'ok' | 'cut' | 'stray' {
    switch (this.outer) {
      case 'before':
        if (c === 91 && this.root !== null) {
          this.key = this.root;
          this.rootArray = true;
          this.outer = 'elements';
          this.sink.array(this.root);
          return 'ok';
        }
        if (c !== 123) return 'stray';
        this.outer = 'key';
        return 'ok';
      case 'key':
        if (c === 125) this.outer = 'closed';
        else if (c === 34) {
          this.outer = 'inKey';
          this.inString = true;
          this.keyText.length = 0;
        } else return 'stray';
        return 'ok';
      case 'colon':
        if (c !== 58) return 'stray';
        this.outer = 'value';
        return 'ok';
      case 'value':
        if (this.keys.has(this.key)) {
          this.skipping = true;
          this.cutting = 'member';
          return 'cut';
        }
        this.keys.add(this.key);
        if (c === 91 && this.streamed.has(this.key)) {
          this.outer = 'elements';
          this.sink.array(this.key);
          return 'ok';
        }
        this.cutting = 'member';
        return 'cut';
      case 'after':
        if (c === 44) this.outer = 'key';
        else if (c === 125) this.outer = 'closed';
        else return 'stray';
        return 'ok';
      case 'elements':
        // The closing `]` of a document that is one array ends it; an array under a key is followed by `,` or `}`.
        if (c === 93) this.outer = this.rootArray ? 'closed' : 'after';
        else if (c !== 44) {
          this.cutting = 'element';
          return 'cut';
        }
        return 'ok';
      default:
        return 'stray';
    }
  }

  /** Skips string text from `i`; a key's text is kept (keys are short: the first 1,000 characters). */
  private skipString(chunk: string, i: number, from: number): number {
    if (this.escape) {
      this.escape = false;
      if (this.outer === 'inKey' && this.keyText.length < 64) this.keyText.push(chunk[i] as string);
      return i + 1;
    }
    QUOTE_OR_BACKSLASH.lastIndex = i;
    const m = QUOTE_OR_BACKSLASH.exec(chunk);
    const to = m ? m.index : chunk.length;
    if (this.outer === 'inKey' && this.keyText.length < 64) this.keyText.push(chunk.slice(i, Math.min(m ? to + 1 : to, i + 1000)));
    if (!m) return chunk.length;
    if (m[0] === '\\') this.escape = true;
    else {
      this.inString = false;
      if (this.outer === 'inKey') this.endKey();
      else if (this.cutting && this.depth === 0) {
        // A string member value or element ends with its quote.
        this.keep(chunk, from, to + 1);
        this.emit();
      }
    }
    return to + 1;
  }

  private endKey(): void {
    const joined = this.keyText.join('');
    const raw = joined.endsWith('"') ? joined.slice(0, -1) : joined;
    this.keyText.length = 0;
    try {
      this.key = JSON.parse(`"${raw.slice(0, 1000)}"`) as string;
    } catch {
      this.key = raw.slice(0, 1000);
    }
    this.outer = 'colon';
  }

  private emit(): void {
    if (this.stream) {
      this.stream.end();
      this.stream = null;
      this.cutting = null;
      this.depth = 0;
      this.outer = 'elements';
      return;
    }
    const text = this.text.take();
    const what = this.cutting;
    this.cutting = null;
    this.depth = 0;
    this.outer = what === 'element' ? 'elements' : 'after';
    if (this.skipping) {
      this.skipping = false;
      return this.sink.repeated(this.key, this.startLine);
    }
    if (typeof text === 'number') this.sink.tooLong(this.key, what === 'element', this.startLine, text);
    else if (what === 'element') this.sink.element(this.key, text, this.startLine);
    else this.sink.member(this.key, text, this.startLine);
  }

  /**
   * Stray text runs to the next newline or the next bracket, brace, quote or comma (where the grammar may pick up
   * again); after the document's end, to the next newline.
   */
  private strayEnd(chunk: string, from: number): number {
    let j = from;
    const closed = this.outer === 'closed';
    while (j < chunk.length) {
      const c = chunk.charCodeAt(j);
      if (c === 10 || (!closed && (c === 123 || c === 91 || c === 34 || c === 125 || c === 93 || c === 44))) break;
      j++;
    }
    return j;
  }
}
