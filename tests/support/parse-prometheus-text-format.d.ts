// The parser's own package ships no types; this is the shape its README documents (prom2json's).
declare module "parse-prometheus-text-format" {
  export type Sample = {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  };
  export type MetricFamily = {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Sample[];
  };
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
