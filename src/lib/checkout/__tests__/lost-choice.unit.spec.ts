import * as answers from "../../../../packages/storefront/src/__tests__/plugin-answers"
import { lostChoiceOf } from "../lost-choice"

describe("the choice a cart lost (decision 58)", () => {
  it("is said in the words the storefront package's specs read", () => {
    const lost = lostChoiceOf(
      { shipping_option_id: "so_next_day", name: "Next day delivery", amount: 3.95, data: answers.currentMethodData() },
      answers.OUTAGE_RATES.rates,
      "gbp"
    )
    expect(lost).toEqual(answers.LOST_ECO)
  })

  it("is nothing for a removed method that was not lastmile's, and says a store's own reason", () => {
    expect(
      lostChoiceOf({ shipping_option_id: "so_manual", name: "Standard", amount: 3, data: {} }, [], "gbp")
    ).toBeNull()
    const store = lostChoiceOf(
      {
        shipping_option_id: "so_camden",
        name: "Collect from Camden",
        amount: 0,
        data: answers.currentCollectionData(),
      },
      answers.OUTAGE_RATES.rates,
      "gbp"
    )
    expect(store).toMatchObject({ kind: "collection", rate_code: null, amount: 0 })
    expect(store!.reason).toContain(
      "could not be kept when your cart changed. It cannot be offered for your cart as it is now: Collection cannot be confirmed right now."
    )
  })
})
