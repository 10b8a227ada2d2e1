import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: ["node_modules/", ".medusa/", "coverage/", "test-output/", "packages/*/dist/", "**/*.js", "**/*.mjs"],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
      curly: ["error", "all"],
      eqeqeq: ["error", "always"],
    },
  },
  {
    // Tests may be looser; the simulator's CLI, the demo and the system suites talk to a terminal.
    files: ["**/__tests__/**", "integration-tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    files: [
      "packages/simulator/src/cli.ts",
      "scripts/**",
      "demo/**",
      "integration-tests/system/**",
      "integration-tests/bench/**",
    ],
    rules: { "no-console": "off" },
  }
)
