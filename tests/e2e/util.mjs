// What the end-to-end tests that start their own processes share: a free port, waiting for a
// condition, a child process whose output is kept for the artifacts.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port free on loopback now (the system's choice). */
export async function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Polls `cond` (sync or async) every 100 ms until it gives a truthy value; fails after `ms`. */
export async function until(cond, what, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** Starts a child process, the end of its output kept; `stop()` ends it (SIGTERM, SIGKILL after 5 s)
 *  and writes that output to `logFile`. */
export function child(logFile, cmd, args, env = {}) {
  const proc = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let out = "";
  const keep = (d) => (out = (out + d).slice(-50_000));
  proc.stdout.on("data", keep);
  proc.stderr.on("data", keep);
  return {
    proc,
    output: () => out,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        await Promise.race([new Promise((r) => proc.once("exit", r)), sleep(5000)]);
        if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      }
      mkdirSync(dirname(logFile), { recursive: true });
      writeFileSync(logFile, out);
    },
  };
}

/** Waits for a server's `/healthz` to answer 200 (`base`: its address). */
export async function healthy(base) {
  await until(async () => {
    try {
      return (await fetch(`${base}/healthz`)).ok;
    } catch {
      return false;
    }
  }, "the server's /healthz", 20_000);
}
