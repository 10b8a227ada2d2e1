/** Where the page's Medusa is and its publishable key: served by the demo as /config.json. */
export interface DemoConfig {
  medusaUrl: string
  publishableKey: string
  regionId: string
}

export async function loadDemoConfig(): Promise<DemoConfig> {
  const response = await fetch("/config.json", { cache: "no-store" })
  if (!response.ok) {
    throw new Error(`The demo's /config.json answered ${response.status}.`)
  }
  return (await response.json()) as DemoConfig
}
