import { LastmileSimulator, type SimulatorOptions } from "../../packages/simulator/src"

export const TEST_API_KEY = "lm_test_key_0123456789"
export const TEST_WEBHOOK_SECRET = "whsec_test_0123456789abcdef"

/**
 * Starts a simulator before the app boots and points the app's LASTMILE_*
 * variables at it. Call at the top of a spec file, before
 * medusaIntegrationTestRunner, so its beforeAll runs first (the runner loads
 * medusa-config.ts before applying its own `env`).
 */
export function useSimulator(
  options: SimulatorOptions = {},
  /** More LASTMILE_* variables for this spec file's app (restored afterwards). */
  env: Record<string, string> = {}
): { simulator: LastmileSimulator } {
  const simulator = new LastmileSimulator({ ...options, config: { apiKey: TEST_API_KEY, ...options.config } })
  const saved: Record<string, string | undefined> = {}
  beforeAll(async () => {
    const url = await simulator.start()
    const values = {
      LASTMILE_BASE_URL: url,
      LASTMILE_API_KEY: TEST_API_KEY,
      LASTMILE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      ...env,
    }
    for (const [name, value] of Object.entries(values)) {
      saved[name] = process.env[name]
      process.env[name] = value
    }
  })
  afterAll(async () => {
    await simulator.stop()
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) {
        delete process.env[name]
      } else {
        process.env[name] = value
      }
    }
  })
  return { simulator }
}
