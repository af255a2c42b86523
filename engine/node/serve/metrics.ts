// Counters of one server process, served as GET /metrics in the Prometheus text exposition format (version
// 0.0.4: https://prometheus.io/docs/instrumenting/exposition_formats/ — `# HELP`, `# TYPE`, one sample a line,
// histograms as cumulative `_bucket{le}` plus `_sum` and `_count`). Latency is of the decision endpoints,
// from the request's arrival to its answer being handed to the socket.

/** Upper bounds of the latency buckets, in seconds (Prometheus' base unit; the last bucket is +Inf). */
export const LATENCY_BUCKETS_S = [0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const;

/** What the server knows at the moment of a scrape (gauges), beside the counters kept here. */
export interface Gauges {
  sessions: number;
  maxSessions: number;
  sessionsDropped: number;
  sessionsReloaded: number;
  unreadableRecordings: number;
  queued: number;
  streamClients: number;
  maxStreamClients: number;
  openRecordings: number;
  writeFaultOpen: boolean;
  writeFaults: number;
  divergentOnRebuild: number;
  rssBytes: number;
}

export class Metrics {
  /** Decisions that could not be made (a session failing closed), answered with the fail-closed answer. */
  failClosed = 0;
  private readonly decisions = new Map<string, number>();
  /** Requests by route kind and status code, e.g. `claude 200`. */
  private readonly requests = new Map<string, number>();
  private readonly buckets: number[] = new Array(LATENCY_BUCKETS_S.length + 1).fill(0);
  private latencySum = 0;
  private latencyCount = 0;

  count(decision: string): void {
    this.decisions.set(decision, (this.decisions.get(decision) ?? 0) + 1);
  }

  request(route: string, status: number): void {
    const k = `${route} ${status}`;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  latency(seconds: number): void {
    let i = 0;
    while (i < LATENCY_BUCKETS_S.length && !(seconds <= LATENCY_BUCKETS_S[i]!)) i++;
    this.buckets[i]!++;
    this.latencySum += seconds;
    this.latencyCount++;
  }

  /** The exposition text. */
  text(g: Gauges): string {
    const out: string[] = [];
    const family = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string, samples: [string, number][]) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, v] of samples) out.push(`${name}${labels} ${v}`);
    };
    const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    family('hookwire_requests_total', 'counter', 'HTTP requests answered, by route and status code.', sorted(this.requests).map(([k, v]) => {
      const [route, status] = k.split(' ');
      return [`{route="${route}",code="${status}"}`, v];
    }));
    family('hookwire_decisions_total', 'counter', 'Events decided and recorded, by decision.', sorted(this.decisions).map(([d, v]) => [`{decision="${d}"}`, v]));
    family('hookwire_fail_closed_total', 'counter', 'Events answered with the fail-closed answer because no decision could be made.', [['', this.failClosed]]);
    let cum = 0;
    const buckets: [string, number][] = LATENCY_BUCKETS_S.map((le, i) => [`_bucket{le="${le}"}`, (cum += this.buckets[i]!)]);
    buckets.push(['_bucket{le="+Inf"}', this.latencyCount], ['_sum', Math.round(this.latencySum * 1e6) / 1e6], ['_count', this.latencyCount]);
    out.push('# HELP hookwire_decision_latency_seconds Time from a decision request\'s arrival to its answer.', '# TYPE hookwire_decision_latency_seconds histogram');
    for (const [suffix, v] of buckets) out.push(`hookwire_decision_latency_seconds${suffix} ${v}`);
    family('hookwire_sessions', 'gauge', 'Live sessions (in memory).', [['', g.sessions]]);
    family('hookwire_sessions_max', 'gauge', 'The cap on live sessions (--max-sessions).', [['', g.maxSessions]]);
    family('hookwire_sessions_dropped_total', 'counter', 'Sessions that left memory (ended or idle).', [['', g.sessionsDropped]]);
    family('hookwire_sessions_reloaded_total', 'counter', 'Sessions brought back from their recordings.', [['', g.sessionsReloaded]]);
    family('hookwire_sessions_unreadable', 'gauge', 'Sessions whose recording cannot be read (answered 503).', [['', g.unreadableRecordings]]);
    family('hookwire_queue_events', 'gauge', 'Events waiting behind another event of their session.', [['', g.queued]]);
    family('hookwire_stream_clients', 'gauge', 'Live-stream (SSE) clients.', [['', g.streamClients]]);
    family('hookwire_stream_clients_max', 'gauge', 'The cap on live-stream clients (--max-streams).', [['', g.maxStreamClients]]);
    family('hookwire_open_recordings', 'gauge', 'Recording files held open.', [['', g.openRecordings]]);
    family('hookwire_write_fault', 'gauge', '1 while recordings cannot be written (every session fails closed).', [['', g.writeFaultOpen ? 1 : 0]]);
    family('hookwire_write_faults_total', 'counter', 'Write faults since start (each healed one is in faults.jsonl).', [['', g.writeFaults]]);
    family('hookwire_divergent_on_rebuild_total', 'counter', 'Recorded decisions that replaying a recording did not reproduce.', [['', g.divergentOnRebuild]]);
    family('process_resident_memory_bytes', 'gauge', 'Resident memory of the server process.', [['', g.rssBytes]]);
    return `${out.join('\n')}\n`;
  }
}

/** Reads an exposition text back into `name{labels}` → value (tests, the benchmark). */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}
