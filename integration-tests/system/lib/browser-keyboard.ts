/**
 * The demo's whole checkout with the keyboard alone (no click, no fill): the bag, the details, a store then a delivery
 * compared with the arrow keys and chosen with Enter, a note to the courier, the order, and a return; axe-core on each.
 */
import type { Browser, Page } from "playwright-core"
import { auditScreen, focusState, isChoice, requestsDuring, smallTargets, tabTo } from "./browser-a11y"
import { check } from "./browser-shop"

export interface KeyboardShopContext {
  shop: string
  say: (line: string) => void
  docShots: Map<string, Buffer>
  /** Moves the order's task at the simulator until it reaches `value` (each move rings Medusa's webhook). */
  advanceOrder: (orderId: string, value: string) => Promise<void>
}

/** The note the keyboard types for the courier. */
export const KEYBOARD_NOTE = "Gate code 4821: leave it in the porch."
const NOTE = KEYBOARD_NOTE

/** Returns the order placed. */
export async function keyboardCheckout(browser: Browser, context: KeyboardShopContext): Promise<string> {
  const { shop, say, docShots } = context
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(60_000)
  try {
    await page.goto(shop)
    const tee = page.getByTestId("product-DEMO-TEE").getByRole("button", { name: "Add to bag" })
    await tee.waitFor()
    await assertStepShown(page, "the demo's products")
    await tabTo(page, tee, "the tee's Add to bag")
    await page.keyboard.press("Enter")
    await page.getByTestId("bag").waitFor()
    // The details are the sample shopper's: Tab through them to the button.
    await tabTo(page, page.getByTestId("save-address"), "Continue to delivery")
    await page.keyboard.press("Enter")
    const first = page.getByTestId("choice-radio").first()
    await first.waitFor()
    await assertStepShown(page, "the demo's delivery step")
    const announced = await page.getByTestId("step-announcement").innerText()
    check(/to choose from/.test(announced), `the step's live region says nothing of what it offers: ${announced}`)

    // Into the radio group; an arrow to the first store and back: no request until Enter.
    await tabTo(page, first, "the first delivery rate")
    const deliveries = await page.getByTestId("delivery-choice").count()
    const browsed = await requestsDuring(page, isChoice, async () => {
      for (let i = 0; i < deliveries; i++) {
        await page.keyboard.press("ArrowDown")
        check((await focusState(page)).visible, "focus does not show on a choice reached with an arrow key")
      }
      await page.getByTestId("confirm-choice").waitFor()
      await page.waitForTimeout(500)
    })
    check(browsed === 0, `the arrow keys changed the cart ${browsed} time(s)`)
    const store = page.locator('[data-testid="collection-choice"][data-draft="true"]')
    const storeName = (await store.getByTestId("choice-title").innerText()).trim()
    const chosenStore = await requestsDuring(page, isChoice, async () => {
      await page.keyboard.press("Enter")
      await page.locator('[data-testid="collection-choice"][data-selected="true"][data-pending="false"]').waitFor()
    })
    check(chosenStore === 1, `Enter chose the store with ${chosenStore} request(s)`)
    await page.getByTestId("payment-section").waitFor()
    await assertStepShown(page, "the demo's collection choice")
    say(
      `keyboard: arrows compared without a request, Enter chose ${storeName} (one request); axe-core finds nothing serious`
    )

    // Back to the first delivery rate with the arrows, chosen with Enter.
    for (let i = 0; i < deliveries; i++) {
      await page.keyboard.press("ArrowUp")
    }
    await page.keyboard.press("Enter")
    await page.locator('[data-testid="delivery-choice"][data-selected="true"][data-pending="false"]').first().waitFor()
    check(await first.evaluate((el) => el === document.activeElement), "focus left the choice the keyboard made")

    // The note for the courier: typed, counted, saved with the button that appears beside it.
    const note = page.getByTestId("courier-note-input")
    await tabTo(page, note, "the note for the courier")
    await page.keyboard.type(NOTE)
    const counter = await page.getByTestId("courier-note-counter").innerText()
    check(counter.includes("You have 242 characters remaining"), `the counter reads ${counter}`)
    await tabTo(page, page.getByTestId("confirm-choice"), "Save your note for the courier")
    const saved = await requestsDuring(page, isChoice, async () => {
      await page.keyboard.press("Enter")
      await page.getByTestId("summary-note").waitFor()
    })
    check(saved === 1, `saving the note took ${saved} request(s)`)
    check((await page.getByTestId("summary-note").innerText()).includes(NOTE), "the summary does not show the note")
    await assertStepShown(page, "the demo's delivery step with a rate chosen and a note")
    await docShots.set("storefront-keyboard-note.png", await page.screenshot({ fullPage: true }))

    // The order, from the keyboard.
    await tabTo(page, page.getByTestId("place-order"), "Place order")
    await page.keyboard.press("Enter")
    const confirmation = page.getByTestId("order-confirmation")
    await confirmation.waitFor()
    const orderId = await confirmation.getAttribute("data-order-id")
    check(orderId, "the confirmation names no order")
    await page.getByTestId("tracking-link").waitFor()
    check((await page.getByTestId("confirmation-note").innerText()).includes(NOTE), "the confirmation drops the note")
    await assertStepShown(page, "the demo's confirmation")
    say(`keyboard: order ${orderId} placed with the keyboard alone, the note on it; its confirmation passes axe-core`)

    // Delivered, then a return, from the keyboard.
    await context.advanceOrder(orderId, "DELIVERED")
    await page.locator('[data-testid="tracking"][data-status="delivered"]').waitFor()
    await tabTo(page, page.getByTestId("return-start"), "Return an item")
    await page.keyboard.press("Enter")
    await page.getByTestId("return-item").first().waitFor()
    await assertStepShown(page, "the demo's return form")
    await tabTo(page, page.getByTestId("return-submit"), "Request return")
    await page.keyboard.press("Enter")
    await page.getByTestId("return-requested").waitFor()
    await assertStepShown(page, "the demo's return requested")
    say("keyboard: a return requested with the keyboard alone; the return screens pass axe-core")
    return orderId
  } finally {
    await page.close()
  }
}

/** axe-core on the step, and no control of the page under 24 × 24 px. */
async function assertStepShown(page: Page, screen: string): Promise<void> {
  await auditScreen(page, screen)
  const small = await smallTargets(page, "main")
  check(!small.length, `controls under 24 × 24 px on ${screen}: ${small.join(", ")}`)
}
