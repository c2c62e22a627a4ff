import { defineConfig } from "vitest/config";

// Live smoke tests against a running evr-server (not part of `npm test`):
//   EVR_API=http://127.0.0.1:8080 NODE_OPTIONS=--experimental-websocket npx vitest run -c vitest.smoke.config.ts
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

export default defineConfig({
  test: {
    environment: "node",
    // every language pack loaded before the tests (test/languages.ts)
    setupFiles: ["test/languages.ts"],
    include: ["smoke/**/*.test.ts", "smoke/**/*.test.tsx"],
    testTimeout: 300_000,
    environmentOptions: { happyDOM: { url: env.EVR_API ?? "http://127.0.0.1:8080" } },
  },
});
