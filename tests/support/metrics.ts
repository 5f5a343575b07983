// Test helpers for /metrics: scrape the route as Prometheus does, and read the answer with a Prometheus text
// parser of its own (parse-prometheus-text-format, prom2json's output), not with prom-client that wrote it. That
// parser drops the labels of a histogram's samples (it reads unlabeled histograms only), which is why the one
// histogram has no labels and the label test checks histograms in the text.
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import * as metricsRoute from "@/app/metrics/route";
import { BASE, ctx } from "@/tests/support/auth";

export type { MetricFamily };

export async function scrape(headers: Record<string, string>): Promise<Response> {
  return metricsRoute.GET(new Request(`${BASE}/metrics`, { headers }), ctx());
}

export async function scrapeFamilies(token: string): Promise<MetricFamily[]> {
  const res = await scrape({ authorization: `Bearer ${token}` });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${await res.text()}`);
  return parsePrometheusTextFormat(await res.text());
}

/** One family's samples as { "label=value,…": value } (labels sorted), for comparisons. */
export function samples(families: MetricFamily[], name: string): Record<string, number> {
  const family = families.find((f) => f.name === name);
  if (!family) throw new Error(`no family ${name}`);
  return Object.fromEntries(
    family.metrics.map((m) => [
      Object.entries(m.labels ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
      Number(m.value ?? m.count),
    ]),
  );
}
