import { expect, it } from "vitest";
import { usableEmail } from "./owner-emails";

it("counts an empty address and the provider's placeholder as none", () => {
  expect(usableEmail("alice@example.com")).toBe("alice@example.com");
  expect(usableEmail(" alice@corp.example ")).toBe("alice@corp.example");
  for (const none of ["", "  ", null, undefined, "default@example.com", "Default@Example.com"])
    expect(usableEmail(none)).toBeNull();
});
