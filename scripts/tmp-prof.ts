import { gzipSync } from "node:zlib";
import { readJsonLifting, readBody } from "@/lib/http/request";
import { validate } from "@/lib/validations/validate";
import { jobResult } from "@/lib/cleanup/protocol";
const body = gzipSync(`{"leaseToken":"x","units":[${"{},".repeat(11_000_000)}{}]}`);
const req = () => new Request("http://x/", { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body });
let t = performance.now();
const b = await readBody(req(), 48 * 2 ** 20);
console.log("readBody", performance.now() - t, b.length);
t = performance.now();
let last = performance.now(), worst = 0;
const iv = setInterval(() => { worst = Math.max(worst, performance.now() - last); last = performance.now(); }, 5);
try {
  await readJsonLifting(req(), 48 * 2 ** 20, { units: (v, i) => validate(jobResult.shape.units.element, v, "body", `units.${i}`) }, 65536);
} catch (e) { console.log((e as Error).message.slice(0, 80)); }
clearInterval(iv);
console.log("lifting", performance.now() - t, "worst gap", worst);
