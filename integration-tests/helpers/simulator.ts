import { LastmileSimulator, type SimulatorOptions } from "../../src/simulator"

export const TEST_API_KEY = "lm_test_key_0123456789"
export const TEST_WEBHOOK_SECRET = "whsec_test_0123456789abcdef"

/**
 * Starts a simulator before the app boots and points the app's LASTMILE_*
 * variables at it. Call at the top of a spec file, before
 * medusaIntegrationTestRunner, so its beforeAll runs first (the runner loads
 * medusa-config.ts before applying its own `env`).
 */
export function useSimulator(options: SimulatorOptions = {}): { simulator: LastmileSimulator } {
  const simulator = new LastmileSimulator({ ...options, config: { apiKey: TEST_API_KEY, ...options.config } })
  beforeAll(async () => {
    const url = await simulator.start()
    process.env.LASTMILE_BASE_URL = url
    process.env.LASTMILE_API_KEY = TEST_API_KEY
    process.env.LASTMILE_WEBHOOK_SECRET = TEST_WEBHOOK_SECRET
  })
  afterAll(async () => {
    await simulator.stop()
  })
  return { simulator }
}
