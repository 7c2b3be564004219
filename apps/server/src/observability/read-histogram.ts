import type { Metric, Registry } from "prom-client";

export interface HistogramSeries {
  labels: Record<string, string>;
  /** Cumulative counts, one per bucket bound. */
  buckets: number[];
  count: number;
  sum: number;
}

/**
 * A histogram whose buckets are read on each scrape (from the database) instead of observed
 * one by one. prom-client's Histogram can only observe, so this is a metric of its own with
 * the same shape, which the registry prints like any other.
 */
export function registerReadHistogram(
  registry: Registry,
  options: {
    name: string;
    help: string;
    bounds: readonly number[];
    read: () => Promise<HistogramSeries[]>;
  },
): void {
  const { name, help, bounds } = options;
  const metric = {
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    async get() {
      const values = (await options.read()).flatMap((series) => [
        ...bounds.map((bound, index) => ({
          metricName: `${name}_bucket`,
          labels: { ...series.labels, le: bound },
          value: series.buckets[index] ?? 0,
        })),
        {
          metricName: `${name}_bucket`,
          labels: { ...series.labels, le: "+Inf" },
          value: series.count,
        },
        { metricName: `${name}_sum`, labels: series.labels, value: series.sum },
        { metricName: `${name}_count`, labels: series.labels, value: series.count },
      ]);
      return { name, help, type: "histogram", aggregator: "sum", values };
    },
    reset() {},
  };
  registry.registerMetric(metric as unknown as Metric);
}
