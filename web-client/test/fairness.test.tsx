// @vitest-environment happy-dom
// Provably fair shuffles in the page: the commitment while the game is played; after it, the seed
// and salt and this browser's own SHA-256 check of them against the commitment.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { Archive } from "../src/ui/Archive";
import { commitmentOf, FairnessPanel } from "../src/ui/Fairness";
import { ReplayPanel, replayUrl } from "../src/ui/ReplayPanel";
import { mountPoint } from "./dom";
import { FAIR_COMMITMENT, FAIR_SALT, FAIR_SEED, ROOM } from "./fakes";

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

describe("replay reveal", () => {
  const room = (agreed: [boolean, boolean]) => ({ ...ROOM, reveal_agreed: agreed });

  it("a player may agree; the file is offered only once both did", () => {
    let asked = 0;
    act(() => render(<ReplayPanel room={room([false, false])} me="rebel" onReveal={() => asked++} />, root()));
    expect(root().querySelector("a[download]")).toBeNull();
    const agree = root().querySelector<HTMLButtonElement>("button.reveal-agree");
    expect(agree?.textContent).toBe("Reveal everything in the replay");
    act(() => agree?.click());
    expect(asked).toBe(1);

    act(() => render(<ReplayPanel room={room([true, false])} me="rebel" onReveal={() => {}} />, root()));
    expect(root().querySelector("button.reveal-agree")).toBeNull();
    expect(root().textContent).toContain("You agreed. Waiting for Imperial to agree.");
    expect(root().querySelector("a[download]")).toBeNull();

    act(() => render(<ReplayPanel room={room([true, true])} me={null} onReveal={() => {}} />, root()));
    const link = root().querySelector<HTMLAnchorElement>("a[download]");
    expect(link?.getAttribute("href")).toBe(replayUrl(ROOM.code, 1));
    expect(link?.getAttribute("href")).toBe(`/api/rooms/${ROOM.code}/games/1/replay`);
    expect(root().textContent).toContain(`evr verify evr-${ROOM.code}-game-1.json`);
  });

  it("a player's device fetches the file with its seat token and saves it (a private room serves it to its players only)", async () => {
    localStorage.setItem(`evr.token.${ROOM.code}`, "seat-token");
    const asked: { url: string; auth: string | undefined }[] = [];
    vi.stubGlobal("fetch", async (url: string, init?: { headers?: Record<string, string> }) => {
      asked.push({ url, auth: init?.headers?.authorization });
      return new Response('{"format":"evr-replay"}', { status: 200 });
    });
    const saved: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:file", revokeObjectURL: () => {} }));
    try {
      act(() => render(<ReplayPanel room={room([true, true])} me="rebel" onReveal={() => {}} />, root()));
      const link = root().querySelector<HTMLAnchorElement>("a[download]")!;
      const event = new MouseEvent("click", { bubbles: true, cancelable: true });
      await act(async () => {
        link.dispatchEvent(event);
        await new Promise((r) => setTimeout(r, 10));
      });
      expect(event.defaultPrevented).toBe(true);
      expect(asked).toEqual([{ url: replayUrl(ROOM.code, 1), auth: "Bearer seat-token" }]);
      expect(saved).toEqual([{ href: "blob:file", download: `evr-${ROOM.code}-game-1.json` }]);
    } finally {
      click.mockRestore();
      vi.unstubAllGlobals();
      localStorage.clear();
    }
  });

  it("a spectator cannot agree; a game without a commitment has no replay", () => {
    act(() => render(<ReplayPanel room={room([false, false])} me={null} onReveal={() => {}} />, root()));
    expect(root().querySelector("button.reveal-agree")).toBeNull();
    expect(root().textContent).toContain("Not revealed");
    act(() =>
      render(<ReplayPanel room={{ ...room([true, true]), fairness: null }} me="rebel" onReveal={() => {}} />, root()),
    );
    expect(root().querySelector(".replay-panel")).toBeNull();
  });
});

describe("the room's games", () => {
  it("lists the finished games with their result, date and replay link; a game being played is not listed", async () => {
    const archive = {
      code: ROOM.code,
      games: [
        {
          number: 1,
          started_at: 1_790_000_000,
          over: true,
          outcome: { winner: "imperial", reason: "victory_points", vp: [3, 7] },
          forfeit_winner: null,
          replay_available: true,
        },
        {
          number: 2,
          started_at: 1_790_000_900,
          over: true,
          outcome: null,
          forfeit_winner: "rebel",
          replay_available: false,
        },
        {
          number: 3,
          started_at: 1_790_001_800,
          over: false,
          outcome: null,
          forfeit_winner: null,
          replay_available: false,
        },
      ],
    };
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(archive), { status: 200, headers: { "content-type": "application/json" } });
    });
    try {
      act(() => render(<Archive code={ROOM.code} refresh="1" />, root()));
      await settle();
      expect(asked).toEqual([`/api/rooms/${ROOM.code}/games`]);
      const rows = [...root().querySelectorAll(".archive-table tbody tr")];
      expect(rows.map((r) => r.querySelector("th")?.textContent)).toEqual(["1", "2"]);
      expect(rows[0]!.textContent).toContain("Imperial wins");
      expect(rows[0]!.textContent).toContain("Rebel 3 – 7 Imperial");
      expect(rows[0]!.querySelector("a[download]")?.getAttribute("href")).toBe(replayUrl(ROOM.code, 1));
      expect(rows[1]!.querySelector("a.watch-replay")?.getAttribute("href")).toBe(`/r/${ROOM.code}/games/2`);
      expect(rows[1]!.textContent).toContain("Rebel claimed the win");
      expect(rows[1]!.querySelector("a[download]")).toBeNull();
      expect(rows[1]!.textContent).toContain("not revealed");
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
