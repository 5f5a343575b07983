// Vitest setup for the unit project: config() keeps what it parsed, so a variable one test stubs (vi.stubEnv,
// process.env) would otherwise stay in force, or stay ignored, for the tests after it. Each test reads the
// environment as it finds it.
import { beforeEach } from "vitest";
import { resetConfigForTests } from "@/lib/config";

beforeEach(() => resetConfigForTests());
