// Next.js's telemetry is off in every way the app is built or started: npm scripts, the demo, the image, the chart
// (tests/integration/helm-chart.test.ts checks the chart's containers).
import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("Next.js telemetry", () => {
  it("is off in every npm script that runs next", () => {
    const { scripts } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    const runsNext = Object.entries(scripts).filter(([, s]) => /\bnext (dev|build|start)\b/.test(s));
    expect(runsNext.map(([name]) => name).sort()).toEqual(["build", "dev", "start"]);
    for (const [name, s] of runsNext) expect(s, name).toMatch(/NEXT_TELEMETRY_DISABLED=1 next /);
  });

  it("is off where the demo and the test server start next", () => {
    for (const file of ["scripts/demo.ts", "scripts/lib/next-server.ts"]) {
      expect(fs.readFileSync(file, "utf8"), file).toContain('NEXT_TELEMETRY_DISABLED: "1"');
    }
  });

  it("is off in the image's build and runtime stages", () => {
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    expect(dockerfile.match(/NEXT_TELEMETRY_DISABLED=1/g)).toHaveLength(2);
  });
});
