// The built browser client (web-client/dist) served on loopback as evr-server serves it: its files,
// and the page for every other path (the client routes /r/CODE itself). The API answers 404: the
// layout test and the frame benchmark give the page its game through their own WebSocket
// (statecheck.mjs, fakeSocket). Resolves to the listening server.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".json": "application/json" };

export function serveDist(dist) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path.startsWith("/api/")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: "not_found", message: "no such room" }));
      return;
    }
    let file = join(dist, path);
    if (!file.startsWith(dist) || !existsSync(file) || path === "/") file = join(dist, "index.html");
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}
