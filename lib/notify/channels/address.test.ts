import { describe, expect, it } from "vitest";
import { checkedAddress, refusal } from "./address";

describe("the webhook's address", () => {
  it("refuses loopback, link-local, private and mapped forms of them", () => {
    for (const address of ["127.0.0.1", "169.254.169.254", "10.1.2.3", "192.168.0.10", "172.20.0.1", "0.0.0.0"])
      expect(refusal({ address, family: 4 })).toMatch(/loopback, link-local or private/);
    for (const address of ["::1", "fe80::1", "fd00::5", "::ffff:127.0.0.1"])
      expect(refusal({ address, family: 6 })).not.toBeNull();
    expect(refusal({ address: "93.184.215.14", family: 4 })).toBeNull();
  });

  it("refuses a name that resolves inward unless private addresses are allowed", async () => {
    await expect(checkedAddress("localhost", false)).rejects.toThrow(/STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE=1/);
    await expect(checkedAddress("[::1]", false)).rejects.toThrow(/refused/);
    expect((await checkedAddress("127.0.0.1", true)).address).toBe("127.0.0.1");
  });
});
