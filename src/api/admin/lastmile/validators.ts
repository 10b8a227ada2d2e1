import { z } from "@medusajs/framework/zod"

export const CollectionSwitch = z.object({ enabled: z.boolean() }).strict()
export type CollectionSwitchType = z.infer<typeof CollectionSwitch>

export const CancelTask = z
  .object({ confirm: z.literal(true, { error: "confirm must be true: this cancels Medusa's side only" }) })
  .strict()
export type CancelTaskType = z.infer<typeof CancelTask>

export const LinkLocation = z.object({ stock_location_id: z.string().trim().min(1) }).strict()
export type LinkLocationType = z.infer<typeof LinkLocation>

export const SetupShipping = z
  .object({
    return_location_id: z.string().trim().min(1).optional(),
    sales_channel_ids: z.array(z.string().trim().min(1)).max(100).optional(),
  })
  .strict()
export type SetupShippingType = z.infer<typeof SetupShipping>
