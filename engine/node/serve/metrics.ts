// Counters of one server process (GET /metrics): events, decisions by kind, and a latency histogram of the
// decision endpoints, measured from the request's arrival to its answer being handed to the socket.

/** Upper bounds of the latency buckets, in milliseconds (the last bucket is everything slower). */
export const LATENCY_BUCKETS_MS = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000] as const;

export class Metrics {
  events = 0;
  /** Decisions that could not be made (a session failing closed), answered with the fail-closed answer. */
  failClosed = 0;
  /** Requests refused with a 4xx/5xx (token, Host, Origin, size, bad body). */
  refused = 0;
  private readonly decisions = new Map<string, number>();
  private readonly kinds = new Map<string, number>();
  private readonly buckets: number[] = new Array(LATENCY_BUCKETS_MS.length + 1).fill(0);
  private latencySum = 0;
  private latencyCount = 0;

  count(decision: string): void {
    this.events++;
    this.decisions.set(decision, (this.decisions.get(decision) ?? 0) + 1);
  }

  kind(kind: string): void {
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
  }

  latency(ms: number): void {
    let i = LATENCY_BUCKETS_MS.findIndex((b) => ms <= b);
    if (i === -1) i = LATENCY_BUCKETS_MS.length;
    this.buckets[i]!++;
    this.latencySum += ms;
    this.latencyCount++;
  }

  snapshot() {
    return {
      events: this.events,
      decisions: Object.fromEntries(this.decisions),
      requests_by_kind: Object.fromEntries(this.kinds),
      fail_closed: this.failClosed,
      refused: this.refused,
      latency_ms: {
        count: this.latencyCount,
        sum: Math.round(this.latencySum * 1000) / 1000,
        buckets: [...LATENCY_BUCKETS_MS.map((le, i) => ({ le: String(le), count: this.buckets[i]! })), { le: '+Inf', count: this.buckets[LATENCY_BUCKETS_MS.length]! }],
      },
    };
  }
}
