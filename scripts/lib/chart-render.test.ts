import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderChart } from "./chart-render";

/** A chart of one template, rendered with `values`. */
function one(template: string, values: Record<string, unknown> = {}, helpers = ""): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chart-"));
  fs.mkdirSync(path.join(dir, "templates"));
  fs.writeFileSync(path.join(dir, "Chart.yaml"), "name: c\nappVersion: 2.0.0\n");
  fs.writeFileSync(path.join(dir, "values.yaml"), "a: {b: x, c: 1}\nlist: [p, q]\n");
  fs.writeFileSync(path.join(dir, "templates", "_h.tpl"), helpers);
  fs.writeFileSync(path.join(dir, "templates", "t.yaml"), template);
  try {
    return renderChart(dir, { values, releaseName: "r" }).get("templates/t.yaml")!;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the chart renderer's subset of Helm templates", () => {
  it("prints fields, with values merged over the chart's and Chart.yaml's fields capitalized", () => {
    expect(
      one("{{ .Values.a.b }}-{{ .Values.a.c }}-{{ .Chart.AppVersion }}-{{ .Release.Name }}", { a: { c: 2 } }),
    ).toBe("x-2-2.0.0-r");
  });

  it("trims the whitespace beside {{- and -}}, and drops comments", () => {
    expect(one("a\n  {{- .Values.a.b -}}  \nb {{/* why */}}c")).toBe("axb c");
  });

  it("passes a pipeline's value as the last argument", () => {
    expect(
      one(
        '{{ .Values.none | default "d" | quote }} {{ printf "%s:%s" .Values.a.b (.Values.none | default .Chart.AppVersion) }}',
      ),
    ).toBe('"d" x:2.0.0');
  });

  it("branches with if / else if / else, with and range, where $ is the root", () => {
    const t =
      '{{ if eq .Values.a.b "y" }}1{{ else if gt (int .Values.a.c) 0 }}2{{ else }}3{{ end }}' +
      "{{ with .Values.a }}{{ .b }}{{ end }}{{ range .Values.list }}[{{ . }}{{ $.Values.a.b }}]{{ end }}";
    expect(one(t)).toBe("2x[px][qx]");
  });

  it("includes defined templates, indented with nindent; toYaml sorts keys as Helm does", () => {
    const helpers = '{{- define "h" -}}\nk: {{ .b }}\n{{- end }}';
    const out = one(
      'm:{{ include "h" .Values.a | nindent 2 }}\n{{ toYaml .Values.m }}',
      { m: { z: 1, y: [2] } },
      helpers,
    );
    expect(out).toBe("m:\n  k: x\ny:\n  - 2\nz: 1");
  });

  it("fails on what it cannot render, and on required values that are missing", () => {
    expect(() => one("{{ lower .Values.a.b }}")).toThrow(/no function "lower"/);
    expect(() => one('{{ required "give me" .Values.none }}')).toThrow(/give me/);
    expect(() => one("{{ if .Values.a.b }}")).toThrow(/unclosed if/);
  });
});
