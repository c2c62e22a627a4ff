// Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build that is worth
// compressing, so the server (crates/server/src/client.rs) can send them as they are, without a
// compression library and without compressing on every request. Node's own zlib does both.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const DIST = new URL("../dist/", import.meta.url).pathname;
const TEXT = /\.(js|css|html|svg|json|map|txt)$/;
// Below this, the headers cost more than compression saves.
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
for (const path of files(DIST)) {
  if (!TEXT.test(path)) continue;
  const data = readFileSync(path);
  if (data.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  });
  const gzip = gzipSync(data, { level: 9 });
  writeFileSync(`${path}.br`, brotli);
  writeFileSync(`${path}.gz`, gzip);
  raw += data.length;
  br += brotli.length;
  gz += gzip.length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`precompressed ${kb(raw)} of text: ${kb(br)} brotli, ${kb(gz)} gzip`);
