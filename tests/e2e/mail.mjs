// The mail the end-to-end tests read (correspondence.test.mjs, accounts.test.mjs): a real SMTP server
// on loopback, scripts/mail/smtp_sink.py (aiosmtpd; run.sh gives a Python that has it, found or made
// by scripts/mail/sink.sh, as EVR_SINK_PYTHON), which writes each mail it receives as a .eml file;
// the tests read those files with Python's `email` package.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { child, until } from "./util.mjs";

const REPO = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
/** A Python with aiosmtpd for the sink (run.sh gives the one scripts/mail/sink.sh finds or makes). */
const SINK_PYTHON = process.env.EVR_SINK_PYTHON ?? "python3";

/** Starts the SMTP sink on a free loopback port, its mails in a new temporary folder: `{ port, dir,
 *  stop }`; `stop()` ends it, writes its output to `logFile` and deletes the mails. */
export async function startSink(logFile) {
  const dir = mkdtempSync(join(tmpdir(), "evr-e2e-mail-"));
  const portFile = `${dir}.port`;
  const sink = child(logFile, SINK_PYTHON, [join(REPO, "scripts/mail/smtp_sink.py"), "--dir", dir, "--port-file", portFile, "--max-secs", "1200"]);
  const stop = async () => {
    await sink.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(portFile, { force: true });
  };
  try {
    const port = await until(() => existsSync(portFile) && Number(readFileSync(portFile, "utf8").trim()), "the SMTP sink's port", 20_000);
    return { port, dir, stop };
  } catch (e) {
    await stop();
    throw new Error(`${e.message}: ${sink.output()} (its Python, ${SINK_PYTHON}, needs aiosmtpd: run.sh finds one with scripts/mail/sink.sh)`);
  }
}

/** The mails in `dir`, oldest first, each read by Python's `email` package (headers decoded, the
 *  text parts decoded from their transfer encoding): { file, at (when the sink wrote it, ms since
 *  1970), to, subject, text, unsubscribe, links }. */
export function readMails(dir) {
  const py = `
import email, email.policy, json, os, sys
d = sys.argv[1]
out = []
for f in sorted(os.listdir(d), key=lambda f: os.stat(os.path.join(d, f)).st_mtime_ns):
    if not f.endswith(".eml"):
        continue
    with open(os.path.join(d, f), "rb") as fh:
        m = email.message_from_binary_file(fh, policy=email.policy.default)
    texts = []
    for part in m.walk():
        if part.get_content_maintype() == "text":
            try:
                texts.append(part.get_content())
            except Exception:
                pass
    out.append({"file": f, "at": os.stat(os.path.join(d, f)).st_mtime_ns / 1e6,
                "to": str(m.get("X-Sink-Rcpt-To", "")) + " " + str(m.get("To", "")), "subject": str(m.get("Subject", "")), "text": "\\n".join(texts),
                "unsubscribe": str(m.get("List-Unsubscribe", ""))})
print(json.dumps(out))
`;
  const r = spawnSync("python3", ["-c", py, dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`reading the mails failed: ${r.stderr}`);
  return JSON.parse(r.stdout).map((m) => ({ ...m, links: [...new Set(m.text.match(/https?:\/\/[^\s"'<>)\]]+/g) ?? [])] }));
}

/** The mails of a sink's folder, each taken once. */
export class Mailbox {
  constructor(dir) {
    this.dir = dir;
    this.seen = new Set();
  }
  /** Mails not taken yet that satisfy `pred`, marked as taken. */
  take(pred) {
    const fresh = readMails(this.dir).filter((m) => !this.seen.has(m.file) && pred(m));
    for (const m of fresh) this.seen.add(m.file);
    return fresh;
  }
  /** The first mail not taken yet that satisfies `pred`, once one has come (fails after `ms`). */
  async wait(pred, what, ms) {
    return until(() => this.take(pred)[0], what, ms);
  }
}

/** A mail to `address` (the envelope's or the header's recipient). */
export const to = (address) => (m) => m.to.includes(address);
