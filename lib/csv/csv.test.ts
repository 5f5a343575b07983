import { describe, expect, it } from "vitest";
import { col, csvTable, formatCell, neutralise } from "./columns";
import { crlfLineEnds } from "./line-ends";
import { openCsvStream } from "./stream";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

type Row = { name: string | null; n: number | string | null; t: string | Date | null };
const columns = [
  col<Row>("name", "text", (r) => r.name),
  col<Row>("n", "integer", (r) => r.n),
  col<Row>("t", "time", (r) => r.t),
];

describe("formatCell", () => {
  it("neutralises text that a spreadsheet would run as a formula, and nothing else", () => {
    for (const s of ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "\n=1", "\uFF1D1"]) {
      expect(neutralise(s)).toBe(`'${s}`);
    }
    for (const s of ["plain", "a=b", "1+1", "'quoted", "", "café"]) expect(neutralise(s)).toBe(s);
  });

  it("writes numbers, negative ones included, as plain numbers and refuses text in number columns", () => {
    expect(formatCell("integer", -1024)).toBe("-1024");
    expect(formatCell("integer", "-9007199254740993")).toBe("-9007199254740993");
    expect(formatCell("integer", 12n)).toBe("12");
    expect(formatCell("number", -0.5)).toBe("-0.5");
    expect(() => formatCell("integer", 1.5)).toThrow(/integer/);
    expect(() => formatCell("integer", "=1+2")).toThrow(/integer/);
    expect(() => formatCell("number", "-2+3")).toThrow(/number/);
    expect(() => formatCell("day", "=TODAY()")).toThrow(/day/);
  });

  it("writes times as ISO 8601 UTC, days as they are, booleans as words, null as an empty cell", () => {
    expect(formatCell("time", new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe("2026-01-02T03:04:05.006Z");
    expect(formatCell("time", "2026-01-02T05:04:05+02:00")).toBe("2026-01-02T03:04:05.000Z");
    expect(formatCell("day", "2026-01-02")).toBe("2026-01-02");
    expect(formatCell("boolean", false)).toBe("false");
    expect(formatCell("text", null)).toBe("");
    expect(formatCell("integer", undefined)).toBe("");
  });
});

describe("openCsvStream", () => {
  it("writes RFC 4180: CRLF, quotes around commas, quotes and line breaks, quotes doubled, UTF-8", async () => {
    const rows: Row[] = [
      { name: '=HYPERLINK("http://evil","x")', n: -1024, t: "2026-01-02T03:04:05.000Z" },
      { name: 'say "hi", then\nleave', n: 0, t: null },
      { name: "\r=1", n: null, t: null },
      { name: "\t=1", n: "123456789012345678", t: null },
      { name: "café, 日本", n: 1, t: null },
    ];
    const out = await text(await openCsvStream(csvTable(rows, columns)));
    expect(out).toBe(
      "name,n,t\r\n" +
        `"'=HYPERLINK(""http://evil"",""x"")",-1024,2026-01-02T03:04:05.000Z\r\n` +
        `"say ""hi"", then\nleave",0,\r\n` +
        `"'\r=1",,\r\n` +
        `'\t=1,123456789012345678,\r\n` +
        `"café, 日本",1,\r\n`,
    );
    const bytes = new Uint8Array(await new Response(await openCsvStream(csvTable([rows[4]], columns))).arrayBuffer());
    expect(Buffer.from(bytes).toString("hex")).toBe(
      Buffer.from('name,n,t\r\n"café, 日本",1,\r\n', "utf8").toString("hex"),
    );
  });

  it("writes the header alone for no rows", async () => {
    expect(await text(await openCsvStream(csvTable([] as Row[], columns)))).toBe("name,n,t\r\n");
  });

  it("reads rows only as the reader asks, and ends the source when the reader cancels", async () => {
    let produced = 0;
    let ended = false;
    async function* rows() {
      try {
        for (let i = 0; i < 1000; i++) {
          produced++;
          yield { name: `r${i}`, n: i, t: null } satisfies Row;
        }
      } finally {
        ended = true;
      }
    }
    const stream = await openCsvStream(csvTable(rows(), columns), { chunkRows: 10 });
    const reader = stream.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^name,n,t\r\nr0,0,\r\n/);
    await reader.cancel();
    const atCancel = produced;
    await new Promise((r) => setTimeout(r, 20));
    expect(ended).toBe(true);
    expect(produced).toBe(atCancel);
    // The first chunk and at most one chunk read ahead.
    expect(produced).toBeLessThanOrEqual(21);
  });

  it("fails before the response when the first row cannot be read", async () => {
    async function* rows(): AsyncGenerator<Row> {
      throw new Error("database down");
    }
    await expect(openCsvStream(csvTable(rows(), columns))).rejects.toThrow("database down");
  });
});

describe("crlfLineEnds", () => {
  it("ends records with CRLF and leaves line breaks inside quoted fields, however the bytes are cut", () => {
    const lf = 'a,"b\nc",d\n"x""\n""",y\né,😀\n\n';
    const crlf = 'a,"b\nc",d\r\n"x""\n""",y\r\né,😀\r\n\r\n';
    const bytes = Buffer.from(lf);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const convert = crlfLineEnds();
      const out = Buffer.concat([convert(bytes.subarray(0, cut)), convert(bytes.subarray(cut))]);
      expect(out.toString(), `cut at ${cut}`).toBe(crlf);
    }
  });
});
