/**
 * The agent's Prometheus registry (prom-client). Each agent has its own registry, so two agents in one
 * process (tests, benchmarks) never share or clash; the part that owns a metric registers it here and
 * keeps the returned prom-client object to count or observe with (typed label names, no lookup by name
 * on the hot path). Gauges are read through callbacks at scrape time so they never go stale.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from "prom-client";
import { VERSION } from "./version.js";

/** Latency buckets (seconds) for request and commit times: 1 ms to 2.5 s. */
export const DEFAULT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export type Sample<L extends string> = { labels: Partial<Record<L, string>>; value: number };

let processCollectors: Metric[] | undefined;

/**
 * CPU, memory, heap, event-loop lag, GC and file descriptors (prom-client's default metrics) are facts
 * of the process, not of an agent, and their collectors cannot be stopped (a GC observer and an
 * event-loop delay monitor each): they are made once per process in a registry of their own, never
 * prom-client's global one, and every agent's registry lists the same collector objects.
 */
function processMetrics(): Metric[] {
  if (!processCollectors) {
    const own = new Registry();
    collectDefaultMetrics({ register: own });
    processCollectors = own.getMetricsAsArray() as unknown as Metric[];
  }
  return processCollectors;
}

/**
 * Why a caller was refused by a limit before its work was done (docs/limits.md): each limit's owner
 * counts its refusals in one counter, `budget_refusals_total{reason}`.
 */
export type RefusalReason =
  | "http_connections"
  | "http_connections_per_address"
  | "http_pipelined"
  | "http_body"
  | "http_rate"
  | "http_stored_bytes"
  | "mqtt_rate"
  | "mqtt_stored_bytes"
  | "mqtt_connections"
  | "mqtt_connections_per_address"
  | "mqtt_packet_size"
  | "mqtt_subscriptions"
  | "mqtt_retained"
  // connections ended by the watch (http/connection-watch.ts)
  | "http_send_timeout"
  | "http_answer_bytes"
  | "http_evicted";

export class Metrics {
  readonly registry = new Registry();

  constructor() {
    for (const m of processMetrics()) this.registry.registerMetric(m);
    this.gauge("pps_edge_build_info", "The agent's version and the Node.js it runs on (always 1)", [
      "version",
      "node",
    ]).set({ version: VERSION, node: process.version }, 1);
  }

  /** Registered once: asking again for the same name returns the same counter, its counts kept. */
  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.once(
      name,
      Counter,
      () => new Counter({ name, help, labelNames, registers: [this.registry] }),
    );
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: number[] = DEFAULT_BUCKETS,
  ): Histogram<L> {
    return this.once(
      name,
      Histogram,
      () => new Histogram({ name, help, labelNames, buckets, registers: [this.registry] }),
    );
  }

  /**
   * A gauge; with `read`, its samples are computed when scraped (asking again replaces the callback, so
   * it reads the newest owner). Without, the owner sets it.
   */
  gauge<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    read?: () => Array<Sample<L>>,
  ): Gauge<L> {
    if (read && this.registry.getSingleMetric(name)) this.registry.removeSingleMetric(name);
    const collect = read
      ? function collect(this: Gauge<L>) {
          this.reset();
          for (const s of read()) this.set(s.labels, s.value);
        }
      : undefined;
    return this.once(
      name,
      Gauge,
      () =>
        new Gauge({ name, help, labelNames, registers: [this.registry], ...(collect ? { collect } : {}) }),
    );
  }

  /** The one counter of refusals by a limit; count with `.inc({ reason })`. */
  refusals(): Counter<"reason"> {
    return this.counter(
      "budget_refusals_total",
      "Callers refused by a limit before their work was done, by limit (docs/limits.md)",
      ["reason"],
    );
  }

  /** The exposition text; `contentType` is its Content-Type. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private once<M>(name: string, kind: abstract new (...args: never[]) => M, make: () => M): M {
    const existing = this.registry.getSingleMetric(name);
    if (existing === undefined) return make();
    if (!(existing instanceof kind)) throw new Error(`metric ${name} is already registered as another type`);
    return existing;
  }
}
