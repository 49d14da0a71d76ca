// Reads a /metrics answer the way Prometheus would: parsed by a text-format parser, not by regexes.
import assert from 'node:assert/strict';
import parsePrometheusTextFormat, { type PromFamily, type PromSample } from 'parse-prometheus-text-format';

export class Scrape {
  readonly families: PromFamily[];
  /**
   * The parser folds every labelled series of a histogram into one (it keeps the buckets of the last and
   * drops labels, _count and _sum); parsed again without the histograms' TYPE lines, each `<name>_count`
   * is a family of its own with its labels intact.
   */
  private readonly series: PromFamily[];

  constructor(text: string) {
    this.families = parsePrometheusTextFormat(text);
    this.series = parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''));
  }

  family(name: string): PromFamily {
    const f = this.families.find((x) => x.name === name);
    assert.ok(f, `metric ${name} is exported`);
    return f;
  }

  /** Samples of the family whose labels include `labels`. */
  samples(name: string, labels: Record<string, string> = {}): PromSample[] {
    return this.family(name).metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** Sum of the values of a counter or gauge over the series matching `labels`. */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.samples(name, labels).reduce((n, m) => n + Number(m.value ?? 0), 0);
  }

  /** Observations of a histogram over the series matching `labels`. */
  count(name: string, labels: Record<string, string> = {}): number {
    assert.equal(this.family(name).type, 'HISTOGRAM');
    // One family per run of lines: a histogram's series each end with their own _count line.
    const counts = this.series.filter((x) => x.name === `${name}_count`).flatMap((x) => x.metrics);
    const matching = counts.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    return matching.reduce((n, m) => n + Number(m.value ?? 0), 0);
  }
}

/** GETs `url` (a /metrics URL) and parses it; asserts a 200 with the Prometheus text content type. */
export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return new Scrape(await res.text());
}
