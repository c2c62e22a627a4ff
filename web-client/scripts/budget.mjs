// The download budget (issue "a table worth sitting at"): what a page fetches before its first render
// — the entry script, the scripts it preloads, the style sheet and its language's pack with whatever
// that pack imports — is at most BUDGET bytes as Brotli sends it, in every language. Reads the build
// (web-client/dist, after `npm run build`, whose precompress step wrote the .br files) and prints
// each language's total; exits 1 when one is over. Parts loaded on demand (the QR encoder when a
// lobby opens) are listed apart and not counted.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

const BUDGET = 60_000;
const DIST = new URL("../dist/", import.meta.url).pathname;
const PACKS = new URL("../src/i18n/packs/", import.meta.url).pathname;

const brotliBytes = (file) => {
  const br = join(DIST, `${file}.br`);
  // precompress skips files under 1 KiB: those go as they are
  return existsSync(br) ? statSync(br).size : statSync(join(DIST, file)).size;
};
/** The chunks a script imports statically, as paths inside dist. */
const importsOf = (file) =>
  [...readFileSync(join(DIST, file), "utf8").matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)].map(
    (m) => `assets/${m[1]}`,
  );
const withImports = (files) => {
  const all = new Set();
  const visit = (f) => {
    if (all.has(f)) return;
    all.add(f);
    if (f.endsWith(".js")) for (const g of importsOf(f)) visit(g);
  };
  for (const f of files) visit(f);
  return all;
};

const html = readFileSync(join(DIST, "index.html"), "utf8");
const first = withImports(
  [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]),
);
const assets = readdirSync(join(DIST, "assets"));
const packs = readdirSync(PACKS).map((f) => basename(f, ".ts"));
// a pack's chunk is the one built from its source file (its source map says; the summaries of the rules,
// i18n/rules/, loaded on demand, have chunks of the same names)
const sourcesOf = (asset) =>
  existsSync(join(DIST, "assets", `${asset}.map`))
    ? JSON.parse(readFileSync(join(DIST, "assets", `${asset}.map`), "utf8")).sources
    : [];
const chunkOf = (pack) =>
  assets.find((a) => a.endsWith(".js") && sourcesOf(a).some((s) => s.endsWith(`src/i18n/packs/${pack}.ts`)));
const packChunks = new Set(packs.map(chunkOf));
const isPack = (asset) => packChunks.has(asset);
let over = false;
for (const pack of packs) {
  const chunk = chunkOf(pack);
  if (!chunk) throw new Error(`no chunk of the language pack ${pack} in the build`);
  const files = withImports([...first, `assets/${chunk}`]);
  const total = [...files].reduce((sum, f) => sum + brotliBytes(f), 0);
  over ||= total > BUDGET;
  console.log(`${pack}: ${total} bytes (${[...files].map((f) => `${basename(f)} ${brotliBytes(f)}`).join(", ")})`);
}
const later = assets.filter((a) => a.endsWith(".js") && !first.has(`assets/${a}`) && !isPack(a));
const what = (a) => sourcesOf(a).find((s) => s.includes("/src/"))?.replace(/.*\/src\//, "") ?? a;
console.log(
  `loaded on demand, not counted: ${later.map((a) => `${what(a)} ${brotliBytes(`assets/${a}`)}`).join(", ") || "nothing"}`,
);
if (over) {
  console.error(`over the budget of ${BUDGET} bytes (Brotli) in some language`);
  process.exit(1);
}
console.log(`every language within ${BUDGET} bytes (Brotli)`);
