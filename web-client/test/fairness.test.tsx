// @vitest-environment happy-dom
// Provably fair shuffles in the page: the commitment while the game is played; after it, the seed
// and salt and this browser's own SHA-256 check of them against the commitment.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { commitmentOf, FairnessPanel } from "../src/ui/Fairness";
import { mountPoint } from "./dom";
import { FAIR_COMMITMENT, FAIR_SALT, FAIR_SEED } from "./fakes";

const root = mountPoint();

async function settle() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 20));
  });
}

describe("fair shuffles", () => {
  it("computes SHA-256(salt ‖ seed) as sha256sum does", async () => {
    expect(await commitmentOf(FAIR_SEED, FAIR_SALT)).toBe(FAIR_COMMITMENT);
    expect(await commitmentOf("zz", FAIR_SALT)).toBeNull();
  });

  it("while the game is played: the commitment, no seed", () => {
    act(() => render(<FairnessPanel fairness={{ commitment: FAIR_COMMITMENT, seed: null, salt: null }} />, root()));
    const text = root().textContent ?? "";
    expect(text).toContain(FAIR_COMMITMENT);
    expect(text).not.toContain("Seed");
    expect(text).toContain("Before the first shuffle");
  });

  it("after the game: seed and salt, checked against the commitment", async () => {
    act(() =>
      render(
        <FairnessPanel fairness={{ commitment: FAIR_COMMITMENT, seed: FAIR_SEED, salt: FAIR_SALT }} open />,
        root(),
      ),
    );
    await settle();
    expect(root().querySelector(".fair-check")?.textContent).toContain("✓");
    expect(root().textContent).toContain(FAIR_SEED);
    expect(root().querySelector(".fair-cmd")?.textContent).toBe(
      `printf %s ${FAIR_SALT}${FAIR_SEED} | xxd -r -p | sha256sum`,
    );
  });

  it("a seed that does not open the commitment is called out", async () => {
    const wrongSalt = "03".repeat(16);
    act(() =>
      render(
        <FairnessPanel fairness={{ commitment: FAIR_COMMITMENT, seed: FAIR_SEED, salt: wrongSalt }} open />,
        root(),
      ),
    );
    await settle();
    expect(root().querySelector(".fair-check")?.textContent).toContain("✗");
    expect(root().querySelector(".fair-check.bad")).not.toBeNull();
  });

  it("a game stored before commitments shows nothing", () => {
    act(() => render(<FairnessPanel fairness={null} />, root()));
    expect(root().querySelector(".fairness")).toBeNull();
  });
});
