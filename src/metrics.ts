/**
 * A small Prometheus text-format registry (exposition format 0.0.4). Counters and histograms keyed
 * by label sets; gauges are read through callbacks at scrape time so they never go stale.
 */
type Labels = Record<string, string>;

const keyCache = new Map<string, string>();

/** The Prometheus label text, memoised: a request's labels repeat, sorting and escaping them need not. */
function labelKey(labels: Labels): string {
  let raw = "";
  for (const k in labels) raw += `${k}\u0001${labels[k]}\u0002`;
  let key = keyCache.get(raw);
  if (key === undefined) {
    key = formatLabels(labels);
    if (keyCache.size > 10_000) keyCache.clear();
    keyCache.set(raw, key);
  }
  return key;
}

function formatLabels(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(labels[k] as string)}"`)
    .join(",");
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

interface HistogramSeries {
  buckets: number[];
  sum: number;
  count: number;
}

interface Family {
  type: "counter" | "histogram" | "gauge";
  help: string;
}

export const DEFAULT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class Metrics {
  private readonly families = new Map<string, Family>();
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly histograms = new Map<string, { bounds: number[]; series: Map<string, HistogramSeries> }>();
  private readonly gauges = new Map<string, () => Array<{ labels: Labels; value: number }>>();

  counter(name: string, help: string): void {
    this.families.set(name, { type: "counter", help });
    if (!this.counters.has(name)) this.counters.set(name, new Map());
  }

  histogram(name: string, help: string, bounds: number[] = DEFAULT_BUCKETS): void {
    this.families.set(name, { type: "histogram", help });
    if (!this.histograms.has(name)) this.histograms.set(name, { bounds, series: new Map() });
  }

  /** A gauge whose samples are computed when scraped. */
  gauge(name: string, help: string, read: () => Array<{ labels: Labels; value: number }>): void {
    this.families.set(name, { type: "gauge", help });
    this.gauges.set(name, read);
  }

  inc(name: string, labels: Labels = {}, by = 1): void {
    const series = this.counters.get(name);
    if (!series) throw new Error(`metric ${name} is not registered`);
    const key = labelKey(labels);
    series.set(key, (series.get(key) ?? 0) + by);
  }

  observe(name: string, labels: Labels, value: number): void {
    const h = this.histograms.get(name);
    if (!h) throw new Error(`metric ${name} is not registered`);
    const key = labelKey(labels);
    let s = h.series.get(key);
    if (!s) {
      s = { buckets: h.bounds.map(() => 0), sum: 0, count: 0 };
      h.series.set(key, s);
    }
    for (let i = 0; i < h.bounds.length; i++)
      if (value <= (h.bounds[i] as number)) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }

  /** Current value of a counter series (for tests and /readyz). */
  value(name: string, labels: Labels = {}): number {
    return this.counters.get(name)?.get(labelKey(labels)) ?? 0;
  }

  render(): string {
    const out: string[] = [];
    for (const [name, fam] of this.families) {
      out.push(`# HELP ${name} ${fam.help}`, `# TYPE ${name} ${fam.type}`);
      if (fam.type === "counter") {
        for (const [key, v] of this.counters.get(name) ?? [])
          out.push(`${name}${key ? `{${key}}` : ""} ${v}`);
      } else if (fam.type === "gauge") {
        for (const { labels, value } of this.gauges.get(name)?.() ?? []) {
          const key = labelKey(labels);
          out.push(`${name}${key ? `{${key}}` : ""} ${value}`);
        }
      } else {
        const h = this.histograms.get(name);
        if (!h) continue;
        for (const [key, s] of h.series) {
          const sep = key ? `${key},` : "";
          h.bounds.forEach((b, i) => {
            out.push(`${name}_bucket{${sep}le="${b}"} ${s.buckets[i]}`);
          });
          out.push(`${name}_bucket{${sep}le="+Inf"} ${s.count}`);
          out.push(`${name}_sum${key ? `{${key}}` : ""} ${s.sum}`);
          out.push(`${name}_count${key ? `{${key}}` : ""} ${s.count}`);
        }
      }
    }
    return `${out.join("\n")}\n`;
  }
}
