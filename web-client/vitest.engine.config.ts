import { defineConfig } from "vitest/config";

// The client's round results against the real engine (not part of `npm test`: it reads what the
// `evr` command wrote; scripts/test.sh runs it after the release build):
//   target/release/evr views --games 200 --fields viewer,mode,phase,round,rounds,pending,outcome,log > /tmp/views.jsonl
//   EVR_ENGINE_VIEWS=/tmp/views.jsonl npx vitest run -c vitest.engine.config.ts
export default defineConfig({
  test: {
    environment: "node",
    // every language pack loaded before the tests (test/languages.ts)
    setupFiles: ["test/languages.ts"],
    include: ["engine/**/*.test.ts", "engine/**/*.test.tsx"],
    testTimeout: 300_000,
  },
});
