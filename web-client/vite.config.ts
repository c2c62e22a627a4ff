import { defineConfig } from "vitest/config";

// The API server (override with EVR_API=http://host:port) (`cargo run --release -p evr-server`) listens on 127.0.0.1:8080.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const api = env.EVR_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  server: {
    // card data is read from ../crates/rules/data/cards.json
    fs: { allow: [".."] },
    proxy: {
      // the page's own Host goes through: the server takes a state-changing request (and a
      // WebSocket) only from a page of the address it was sent to (crates/server/src/same_origin.rs)
      "/api": { target: api },
      "/ws": { target: api.replace(/^http/, "ws"), ws: true },
    },
  },
  preview: {
    proxy: {
      "/api": { target: api },
      "/ws": { target: api.replace(/^http/, "ws"), ws: true },
    },
  },
  // no modulepreload polyfill: every browser the client supports preloads modules itself (the
  // polyfill cost every page ~0.4 KB of the download budget, scripts/budget.mjs); source maps are
  // written but not named in the scripts ("hidden": the comment cost ~60 bytes of each page's
  // budget); names carry 6 characters of hash, not 8 (each script names every chunk it may load)
  build: {
    target: "es2022",
    sourcemap: "hidden",
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        entryFileNames: "assets/[name]-[hash:6].js",
        chunkFileNames: "assets/[name]-[hash:6].js",
        assetFileNames: "assets/[name]-[hash:6][extname]",
      },
    },
  },
  test: {
    environment: "node",
    setupFiles: ["test/languages.ts"],
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
  },
});
