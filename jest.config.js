const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())

const testType = process.env.TEST_TYPE

module.exports = {
  transform: {
    "^.+\\.[jt]sx?$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "typescript", decorators: true, tsx: true }, target: "es2022" } },
    ],
  },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/"],
  testTimeout: 60_000,
  moduleNameMapper: {
    // The workspace packages' source, as the plugin's tests and the HTTP specs read them: a fresh clone's `npm test`
    // has not built their dist.
    "^medusa-plugin-lastmile-storefront$": "<rootDir>/packages/storefront/src/index.ts",
    "^medusa-plugin-lastmile-simulator$": "<rootDir>/packages/simulator/src/index.ts",
    // Its ES module imports name the emitted `.js` files; here they are the `.ts` beside them.
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  ...(testType === "integration:http" || testType === "bench" || testType === "road"
    ? {
        testMatch:
          testType === "bench"
            ? ["**/integration-tests/bench/**/*.bench.[jt]s"]
            : testType === "road"
              ? // The files a placed order runs (scripts/road.ts), apart: not a test of behaviour but a measure.
                ["**/integration-tests/road/**/*.spec.[jt]s"]
              : // The app over HTTP, each module against real PostgreSQL (Medusa's module test runner), and each
                // notification provider against Medusa's Notification Module and its vendor's API on loopback.
                [
                  "**/integration-tests/http/**/*.spec.[jt]s",
                  "**/src/modules/*/__tests__/**/*.spec.[jt]s",
                  "**/integration-tests/providers/**/*.spec.[jt]s",
                ],
        setupFiles: ["./integration-tests/setup.js"],
        globalSetup: "./integration-tests/global-setup.mjs",
        globalTeardown: "./integration-tests/global-teardown.mjs",
      }
    : {
        // The plugin's unit specs, the workspace packages' (packages/*/src/__tests__) and the demo's own.
        testMatch: ["**/src/**/__tests__/**/*.unit.spec.[jt]s", "**/demo/__tests__/**/*.unit.spec.[jt]s"],
      }),
}
