// The start's notice for a callback URL Coder would refuse: http is taken only on a loopback host.
import { expect, it } from "vitest";
import { coderCallbackProblem } from "./coder";

it("accepts https anywhere and http on loopback hosts only, as Coder does", () => {
  for (const ok of [
    "https://storage.example.com",
    "http://localhost:3000",
    "http://127.0.0.1:8080",
    "http://[::1]:3000",
  ]) {
    expect(coderCallbackProblem(ok), ok).toBeNull();
  }
  expect(coderCallbackProblem(null)).toBeNull();
  expect(coderCallbackProblem("http://storage.internal:3000")).toMatch(
    /Coder accepts an http:\/\/ callback URL only on localhost, 127\.0\.0\.1 or ::1, and BETTER_AUTH_URL is http:\/\/storage\.internal:3000/,
  );
});
