import { effect } from "@preact/signals";
import { describe, expect, it } from "vitest";
import { onDemand } from "../src/ui/onDemand";

describe("a part of the page loaded on demand", () => {
  it("is null until its file arrives, then the value, loaded once; a reader is told when it arrives", async () => {
    let loads = 0;
    let arrive!: (v: string) => void;
    const part = onDemand(
      () =>
        new Promise<string>((ok) => {
          loads++;
          arrive = ok;
        }),
    );
    const seen: (string | null)[] = [];
    const stop = effect(() => {
      seen.push(part());
    });
    expect(part()).toBeNull();
    expect(loads).toBe(1);
    arrive("encoder");
    await Promise.resolve();
    await Promise.resolve();
    expect(part()).toBe("encoder");
    expect(seen).toEqual([null, "encoder"]);
    expect(loads).toBe(1);
    stop();
  });

  it("tries again at the next call after a failed load (offline)", async () => {
    let loads = 0;
    const part = onDemand(() => (++loads === 1 ? Promise.reject(new Error("offline")) : Promise.resolve(42)));
    expect(part()).toBeNull();
    await new Promise((ok) => setTimeout(ok, 0));
    expect(part()).toBeNull();
    expect(loads).toBe(2);
    await new Promise((ok) => setTimeout(ok, 0));
    expect(part()).toBe(42);
  });
});
