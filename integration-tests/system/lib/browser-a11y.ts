/**
 * The browser test's accessibility checks (WCAG 2.2 AA): axe-core on a screen, focus that shows and is not hidden,
 * 24 × 24 px targets, and a keyboard that reaches a control by Tab alone.
 */
// The functions handed to the page run in it: they are typed with the DOM.
/// <reference lib="dom" />
import type { Locator, Page } from "playwright-core"
import { check } from "./browser-shop"

/** The rules axe-core runs: WCAG 2.0, 2.1 and 2.2 A and AA (2.2 adds target size), and its best practices. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[]; failureSummary?: string }[]
}

/** What each audit found, by screen: the run's report lists it (serious and critical fail the test). */
export const auditLog: { screen: string; violations: { id: string; impact: string | null; nodes: number }[] }[] = []

/**
 * axe-core on the page (or within `include`, a CSS selector: the plugin's part of a page Medusa's dashboard frames),
 * injected from the installed package. Fails on any serious or critical violation, naming the rule and the nodes; the
 * minor and moderate ones are kept in `auditLog`.
 */
export async function auditScreen(page: Page, screen: string, include?: string): Promise<void> {
  // A colour caught halfway through a transition (a button enabled again as the step appears) is no colour the page
  // shows: the screen is read once its transitions have run (a spinner's endless one aside).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
      undefined,
      { timeout: 10_000 }
    )
    .catch(() => undefined)
  const injected = await page.evaluate(() => typeof (window as { axe?: unknown }).axe !== "undefined")
  if (!injected) {
    await page.addScriptTag({ path: require.resolve("axe-core") })
  }
  const violations = await page.evaluate(
    async ({ include, tags }) => {
      const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<{ violations: unknown[] }> } })
        .axe
      const context = include ? { include: [include] } : document
      const result = await axe.run(context, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })
      return result.violations
    },
    { include, tags: AXE_TAGS }
  )
  const found = violations as AxeViolation[]
  auditLog.push({
    screen,
    violations: found.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })),
  })
  const blocking = found.filter((v) => v.impact === "serious" || v.impact === "critical")
  check(
    !blocking.length,
    `axe-core on ${screen}: ${blocking
      .map(
        (v) =>
          `${v.impact} ${v.id} (${v.help}) at ${v.nodes
            .slice(0, 5)
            .map((n) => n.target.join(" "))
            .join("; ")}`
      )
      .join(" | ")}`
  )
}

/** What has focus, as the test reads it. */
interface FocusState {
  description: string
  testId: string | null
  visible: boolean
  obscured: boolean
  width: number
  height: number
}

/** The focused element: whether it shows focus (its own outline or shadow, or its row's) and is not hidden by anything. */
export async function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) {
      return { description: "the page", testId: null, visible: false, obscured: true, width: 0, height: 0 }
    }
    // A radio button inside its row shows focus on the row (the row is its label and its target). No named inner
    // function here: the test runner's compiler would wrap it in a helper the page does not have.
    const row = el.closest("label")
    const shown = [el, row].some((node) => {
      if (!node) {
        return false
      }
      const style = getComputedStyle(node)
      const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1
      return outline || (style.boxShadow !== "none" && style.boxShadow !== "")
    })
    const rect = el.getBoundingClientRect()
    const x = Math.min(Math.max(rect.left + rect.width / 2, 0), window.innerWidth - 1)
    const y = Math.min(Math.max(rect.top + rect.height / 2, 0), window.innerHeight - 1)
    const top = document.elementFromPoint(x, y)
    const obscured =
      !top || !(el === top || el.contains(top) || top.contains(el) || (row !== null && row.contains(top)))
    return {
      description: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 60)}"`,
      testId: el.getAttribute("data-testid"),
      visible: el.matches(":focus-visible") && shown,
      obscured,
      width: rect.width,
      height: rect.height,
    }
  })
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, at most `limit` times, checking at every stop that focus shows,
 * is not hidden behind anything, and lands on a target of at least 24 × 24 px. Returns the number of presses.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  what: string,
  { back = false, limit = 60 } = {}
): Promise<number> {
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab")
    const state = await focusState(page)
    check(state.visible, `focus does not show on ${state.description} on the way to ${what}`)
    check(!state.obscured, `focus is hidden behind something on ${state.description} on the way to ${what}`)
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      check(
        state.width >= 24 && state.height >= 24,
        `${what} is ${Math.round(state.width)} × ${Math.round(state.height)} px, under 24 × 24`
      )
      return presses
    }
  }
  throw new Error(`the keyboard did not reach ${what} in ${limit} presses of Tab`)
}

/** Counts the requests matching `path` (and `method`) the page makes while `run` runs. */
export async function requestsDuring(
  page: Page,
  matches: (url: string, method: string) => boolean,
  run: () => Promise<void>
): Promise<number> {
  let count = 0
  const listener = (request: { url(): string; method(): string }) => {
    if (matches(request.url(), request.method())) {
      count++
    }
  }
  page.on("request", listener)
  try {
    await run()
  } finally {
    page.off("request", listener)
  }
  return count
}

/** A choice going onto the cart: `POST /store/carts/:id/shipping-methods`. */
export const isChoice = (url: string, method: string) => method === "POST" && /\/shipping-methods(\?|$)/.test(url)

/** The page's controls under 24 × 24 px that are not inline in a sentence (WCAG 2.5.8), with what they are. */
export async function smallTargets(page: Page, within = "body"): Promise<string[]> {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector) ?? document.body
    const controls = root.querySelectorAll<HTMLElement>(
      "button, input:not([type=hidden]), select, textarea, a[href], [role=radio], [role=checkbox], [role=switch], [role=combobox], [tabindex]:not([tabindex='-1'])"
    )
    return Array.from(controls).flatMap((el) => {
      const rect = el.getBoundingClientRect()
      const inSentence = el.tagName === "A" && getComputedStyle(el).display === "inline"
      if (!rect.width || !rect.height || inSentence || (rect.width >= 24 && rect.height >= 24)) {
        return []
      }
      const label = (el.getAttribute("aria-label") ?? el.textContent ?? el.getAttribute("name") ?? "").trim()
      return [
        `${el.tagName.toLowerCase()} "${label.slice(0, 40)}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
      ]
    })
  }, within)
}
