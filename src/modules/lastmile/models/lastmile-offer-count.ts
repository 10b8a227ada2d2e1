import { model } from "@medusajs/framework/utils"

/**
 * What checkout offered and shoppers chose, counted per day (in the store's
 * time zone), lastmile fulfillment option, stock location and reason: a
 * row per combination and day, never per cart, so the table stays small.
 * Written in batches by the module's flush (increments added to the count);
 * read by the insights route; days older than `insights.offer_retention_days`
 * are removed by the daily job.
 */
export const LastmileOfferCount = model
  .define("lastmile_offer_count", {
    id: model.id({ prefix: "lmoc" }).primaryKey(),
    /** The local day, `YYYY-MM-DD`. */
    day: model.text(),
    /**
     * cart: a cart priced that day (no option, no store); offered / unavailable:
     * an option priced for a cart that day, offered in any of its states, else
     * unavailable with its latest reason; chosen: an order placed with it.
     */
    kind: model.enum(["cart", "offered", "unavailable", "chosen"]),
    /** The lastmile fulfillment option (`lastmile-next-day`, `lastmile-collection`); "" for a cart. */
    fulfillment_option: model.text().default(""),
    /** The option's stock location: the store, or the dispatch location; "" for a cart. */
    stock_location_id: model.text().default(""),
    /** Why it was unavailable (the rates route's `unavailable_code`); "" otherwise. */
    reason: model.text().default(""),
    count: model.number().default(0),
  })
  .indexes([{ on: ["day", "kind", "fulfillment_option", "stock_location_id", "reason"], unique: true }])
