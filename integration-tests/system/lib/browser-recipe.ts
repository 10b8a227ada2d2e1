/**
 * The DTC starter recipe's components in Chromium (lib/recipe-page, built with Vite against the demo's backend): axe-core
 * on its step, review and confirmation, each row one named control, and a choice made and confirmed with the keyboard.
 */
import { execFile } from "node:child_process"
import { createReadStream, existsSync, statSync } from "node:fs"
import { type Server, createServer } from "node:http"
import { extname, join, normalize, sep } from "node:path"
import { promisify } from "node:util"
import type { Browser } from "playwright-core"
import type { DemoState } from "../../../demo/settings"
import { auditScreen, focusState, isChoice, requestsDuring, smallTargets, tabTo } from "./browser-a11y"
import { check } from "./browser-shop"

const PAGE_SOURCE = join(process.cwd(), "integration-tests", "system", "lib", "recipe-page")
const RECIPE_SOURCE = join(process.cwd(), "docs", "storefront", "dtc-starter", "apps", "storefront", "src")
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".woff2": "font/woff2",
}

/**
 * `vite build` of the test page (after the storefront package, which it imports as a storefront does): the recipe's
 * files, the starter's modules they import as stand-ins. Build it outside the project: `medusa develop` restarts on
 * any new file in it.
 */
export async function buildRecipePage(outDir: string): Promise<void> {
  await promisify(execFile)(process.execPath, [join(process.cwd(), "packages", "storefront", "build.mjs")])
  const { build } = await import("vite")
  // Tailwind 3, as the starter builds its styles: the utilities the recipe's files use (Medusa's UI preset, which
  // the starter adds, is not installed here: the dashboard's stylesheet gives its colours and type).
  const tailwind = (await import("tailwindcss")).default
  const standIn = (file: string) => join(PAGE_SOURCE, "stand-ins", file)
  await build({
    configFile: false,
    root: PAGE_SOURCE,
    base: "/",
    logLevel: "warn",
    publicDir: false,
    esbuild: { jsx: "automatic" },
    css: {
      postcss: {
        plugins: [
          tailwind({
            content: [join(RECIPE_SOURCE, "**/*.tsx"), join(PAGE_SOURCE, "*.tsx")],
            corePlugins: { preflight: false },
          }),
        ],
      },
    },
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      "process.env.NEXT_PUBLIC_LASTMILE_TIME_ZONE": JSON.stringify("Europe/London"),
      "process.env.NEXT_PUBLIC_LASTMILE_EMAILS_WHEN_BOOKED": JSON.stringify("false"),
    },
    resolve: {
      alias: [
        { find: /^@lib\/config$/, replacement: standIn("config.ts") },
        { find: /^@lib\/data\/cookies$/, replacement: standIn("cookies.ts") },
        { find: /^@lib\/util\/money$/, replacement: standIn("money.ts") },
        { find: /^@lib\/(.*)$/, replacement: `${join(RECIPE_SOURCE, "lib")}/$1` },
        { find: /^@modules\/common\/components\/ui$/, replacement: standIn("ui.tsx") },
        { find: /^@modules\/common\/components\/divider$/, replacement: standIn("divider.tsx") },
        { find: /^@modules\/(.*)$/, replacement: `${join(RECIPE_SOURCE, "modules")}/$1` },
        { find: /^next\/cache$/, replacement: standIn("next-cache.ts") },
        { find: /^next\/headers$/, replacement: standIn("next-headers.ts") },
      ],
    },
    build: {
      outDir,
      emptyOutDir: true,
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        // "use client" and "use server" mean nothing to a browser bundle.
        onwarn: (warning, warn) => {
          if (warning.code !== "MODULE_LEVEL_DIRECTIVE" && warning.code !== "SOURCEMAP_ERROR") {
            warn(warning)
          }
        },
      },
    },
  })
}

/** The built page on loopback; any path that is not a file is the page. */
export function serveRecipePage(dir: string, port: number): Promise<Server> {
  const root = normalize(dir + sep)
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname)
    const file = normalize(join(root, path))
    const found = file.startsWith(root) && existsSync(file) && statSync(file).isFile() ? file : join(root, "index.html")
    res.writeHead(200, { "content-type": TYPES[extname(found)] ?? "application/octet-stream" })
    createReadStream(found).pipe(res)
  })
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)))
}

/**
 * The recipe's step as a keyboard user and a screen reader meet it, then its review and confirmation. The arrow keys
 * move through the rows without a request; Enter chooses (one request); the note rides on the delivery.
 */
export async function testRecipe(
  browser: Browser,
  {
    pageUrl,
    demo,
    say,
    docShots,
  }: { pageUrl: string; demo: DemoState; say: (line: string) => void; docShots: Map<string, Buffer> }
): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(60_000)
  try {
    const query = new URLSearchParams({ medusa: demo.medusaUrl, key: demo.publishableKey, region: demo.regionId })
    await page.goto(`${pageUrl}/?${query}`)
    const rows = page.locator('[data-testid="lastmile-delivery-rate"], [data-testid="lastmile-store"]')
    await rows.first().waitFor()
    const count = await rows.count()
    // One named control per row: a radio button, its name the row as a sentence, nothing clickable inside it.
    const shape = await rows.evaluateAll((labels) =>
      labels.map((row) => ({
        controls: row.querySelectorAll("input, button, a, [role=radio], [tabindex]").length,
        name: row.querySelector("input[type=radio]")?.getAttribute("aria-label") ?? "",
        price: row.lastElementChild?.textContent ?? "",
      }))
    )
    check(
      shape.every((r) => r.controls === 1),
      `a recipe row holds more than one control: ${JSON.stringify(shape.map((r) => r.controls))}`
    )
    check(
      shape.every((r) => /£\d/.test(r.name) && r.name.endsWith(".")),
      `a recipe row is not named by its sentence: ${shape.map((r) => r.name).join(" | ")}`
    )
    check(!shape.some((r) => /Free/.test(r.price)), "a store's row says Free where the summary says £0.00")
    const rate =
      (await page.getByTestId("lastmile-delivery-rate").first().locator("input").getAttribute("aria-label")) ?? ""
    check(/delivered .+ between .+ and .+, saving .+CO₂/.test(rate), `a rate is not read as one sentence: ${rate}`)
    // The nearest five stores, the rest behind Show all stores; a store's own words are its row's description.
    const stores = page.getByTestId("lastmile-stores")
    check((await stores.getAttribute("data-shown")) === "5", "the recipe does not show the nearest five stores first")
    const showAll = page.getByTestId("lastmile-show-all-stores")
    const more = Number(/^Show all stores \((\d+) more\)$/.exec((await showAll.innerText()).trim())?.[1])
    check(more > 0, `the recipe's button reads "${await showAll.innerText()}"`)
    await showAll.click()
    await page.locator(`[data-testid="lastmile-stores"][data-shown="${5 + more}"]`).waitFor()
    await page
      .getByTestId("lastmile-stores-status")
      .getByText(`Showing all ${5 + more} stores.`)
      .waitFor()
    const instructed = page
      .getByTestId("lastmile-store")
      .filter({ has: page.getByTestId("lastmile-store-instructions") })
    check((await instructed.count()) === 1, `${await instructed.count()} of the recipe's stores show instructions`)
    const described = (await instructed.locator("input").getAttribute("aria-describedby")) ?? ""
    check(
      described
        .split(" ")
        .includes((await instructed.getByTestId("lastmile-store-instructions").getAttribute("id")) ?? "-"),
      "a store's instructions are not its row's description in the recipe"
    )
    await auditScreen(page, "the recipe's delivery step")
    const small = await smallTargets(page, '[data-testid="lastmile-options"]')
    check(!small.length, `the recipe's controls under 24 × 24 px: ${small.join(", ")}`)
    say(
      `recipe: ${count} rows, each one radio button named as a sentence ("${rate.replace(/\s/g, " ")}"), the nearest five stores and "Show all stores" for ${more} more; axe-core finds nothing serious`
    )

    // The keyboard alone: into the group, three arrow presses, no request; Enter chooses the one reached.
    const radios = page.locator('input[name="lastmile-choice"]')
    // From the page's heading: focus was left on Show all stores, the step's last control.
    await page.getByRole("heading", { name: "Delivery", exact: true }).click()
    await tabTo(page, radios.first(), "the recipe's first choice")
    const browsed = await requestsDuring(page, isChoice, async () => {
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("ArrowDown")
        check((await focusState(page)).visible, "focus does not show on a row reached with an arrow key")
      }
      await page.waitForTimeout(500)
    })
    check(browsed === 0, `the arrow keys changed the cart ${browsed} time(s)`)
    const reached = await page.evaluate(() => (document.activeElement as HTMLInputElement).value)
    const chosen = await requestsDuring(page, isChoice, async () => {
      await page.keyboard.press("Enter")
      await page.locator(`label[data-chosen="true"][data-pending="false"]:has(input[value="${reached}"])`).waitFor()
    })
    check(chosen === 1, `Enter chose with ${chosen} request(s), not one`)
    say("recipe: three arrow presses moved focus without a request; Enter chose the row reached, in one request")

    // A delivery rate, chosen from the keyboard, then the note for the courier, saved with the button beside it.
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("ArrowUp")
    }
    await page.keyboard.press("Enter")
    await page.locator('[data-testid="lastmile-delivery-rate"][data-chosen="true"][data-pending="false"]').waitFor()
    const note = page.locator("#lastmile-courier-note")
    await tabTo(page, note, "the note for the courier")
    await page.keyboard.type("Gate code 4821: leave it in the porch.")
    check(
      (await page.locator("#lastmile-courier-note-counter").innerText()).includes("You have 242 characters remaining"),
      "the note's counter does not count"
    )
    await tabTo(page, page.getByTestId("lastmile-confirm"), "the note's save button")
    await page.keyboard.press("Enter")
    await page.getByTestId("lastmile-summary-note").waitFor()
    await auditScreen(page, "the recipe's step and review with a choice and a note")
    await docShots.set("recipe-delivery-step.png", await page.screenshot({ fullPage: true }))

    await tabTo(page, page.getByTestId("recipe-place-order"), "Place order")
    await page.keyboard.press("Enter")
    await page.getByTestId("lastmile-shipping-details").waitFor()
    await page.getByTestId("lastmile-note").waitFor()
    await page.getByTestId("lastmile-tracking-status").waitFor()
    await auditScreen(page, "the recipe's order confirmation")
    say("recipe: a note typed and saved from the keyboard, the order placed; its confirmation passes axe-core")
  } finally {
    await page.close()
  }
}
