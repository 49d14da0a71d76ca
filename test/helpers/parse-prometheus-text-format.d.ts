// Types of the dev dependency parse-prometheus-text-format (it ships none): prom2json's shape.
declare module 'parse-prometheus-text-format' {
  export interface PromSample {
    value?: string;
    labels?: Record<string, string>;
    /** Histograms: upper bound ("0.5", "+Inf") to cumulative count. */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PromFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PromSample[];
  }
  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
