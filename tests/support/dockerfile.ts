// The root Dockerfile read with dockerfile-ast (the parser of the Docker language server), so that tests start the
// standalone server exactly as the image's last stage does and check the deployment examples against it.
import fs from "node:fs";
import { DockerfileParser, type Instruction } from "dockerfile-ast";

export type Stage = { name: string; instructions: Instruction[] };
export type RuntimeStage = {
  /** The stages, in order; the last is the image. */
  stages: Stage[];
  workdir: string;
  env: Record<string, string>;
  /** COPY --from=<stage> src dest, with dest resolved against the WORKDIR. */
  copies: { from: string; src: string; dest: string }[];
  run: string[];
  user: string;
  expose: number[];
  healthcheck: { flags: Record<string, string>; cmd: string[] };
  cmd: string[];
};

const jsonArray = (text: string): string[] => {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((s) => typeof s === "string")) throw new Error(`not exec form: ${text}`);
  return parsed as string[];
};

export function readDockerfile(file = "Dockerfile"): RuntimeStage {
  const doc = DockerfileParser.parse(fs.readFileSync(file, "utf8"));
  const stages: Stage[] = [];
  for (const i of doc.getInstructions()) {
    if (i.getKeyword() === "FROM") {
      const m = /\bAS\s+(\S+)\s*$/i.exec(i.getArgumentsContent() ?? "");
      stages.push({ name: m?.[1] ?? String(stages.length), instructions: [] });
    } else stages.at(-1)!.instructions.push(i);
  }
  const last = stages.at(-1)!.instructions;
  const of = (keyword: string) => last.filter((i) => i.getKeyword() === keyword);
  const workdir = of("WORKDIR").at(-1)!.getArgumentsContent()!.trim();
  const env: Record<string, string> = {};
  for (const e of doc.getENVs().filter((x) => last.includes(x)))
    for (const p of e.getProperties()) env[p.getName()] = p.getValue() ?? "";
  const copies = doc
    .getCOPYs()
    .filter((c) => last.includes(c))
    .map((c) => {
      const args = c.getArguments().map((a) => a.getValue());
      const dest = args.at(-1)!;
      return {
        from: c.getFromFlag()?.getValue() ?? "",
        src: args[0],
        dest: dest.startsWith("/") ? dest : `${workdir}/${dest}`.replace(/\/\.?\/?$/, "").replace(/\/\.\//g, "/"),
      };
    });
  const hc = of("HEALTHCHECK")[0];
  const hcFlags = Object.fromEntries(
    (hc as unknown as { getFlags(): { getName(): string; getValue(): string }[] })
      .getFlags()
      .map((f) => [f.getName(), f.getValue()]),
  );
  const hcCmd = /^CMD\s+(\[[\s\S]*\])\s*$/.exec((hc.getArgumentsContent() ?? "").trim());
  if (!hcCmd) throw new Error("HEALTHCHECK must be CMD in exec form");
  return {
    stages,
    workdir,
    env,
    copies,
    run: of("RUN").map((r) => r.getArgumentsContent() ?? ""),
    user: of("USER").at(-1)?.getArgumentsContent()?.trim() ?? "root",
    expose: of("EXPOSE").flatMap((e) => e.getArguments().map((a) => Number.parseInt(a.getValue(), 10))),
    healthcheck: { flags: hcFlags, cmd: jsonArray(hcCmd[1]) },
    cmd: jsonArray(of("CMD").at(-1)!.getArgumentsContent() ?? ""),
  };
}

/** The URL path the health check asks for. */
export function healthcheckPath(stage: RuntimeStage): string {
  const m = /\/api\/[^'"`\s)]+/.exec(stage.healthcheck.cmd.join(" "));
  if (!m) throw new Error("the HEALTHCHECK names no /api path");
  return m[0];
}
