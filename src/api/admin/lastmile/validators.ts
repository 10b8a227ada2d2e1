import { z } from "@medusajs/framework/zod"
import { normalisePhoneNumber } from "../../../lib/address/phone-number"

/** An id as Medusa makes them: text without controls (PostgreSQL refuses a NUL), of a sane length. */
const id = (field: string) =>
  z
    .string({ error: `${field} must be an id` })
    .trim()
    .min(1, `${field} must be an id`)
    .max(200, `${field} is not an id`)
    .regex(/^[^\u0000-\u001F\u007F]+$/, `${field} is not an id`)

export const CollectionSwitch = z.object({ enabled: z.boolean() }).strict()
export type CollectionSwitchType = z.infer<typeof CollectionSwitch>

export const CancelTask = z
  .object({ confirm: z.literal(true, { error: "confirm must be true: this cancels Medusa's side only" }) })
  .strict()
export type CancelTaskType = z.infer<typeof CancelTask>

export const LinkLocation = z.object({ stock_location_id: id("stock_location_id") }).strict()
export type LinkLocationType = z.infer<typeof LinkLocation>

export const SetupShipping = z
  .object({
    return_location_id: id("return_location_id").optional(),
    sales_channel_ids: z.array(id("sales_channel_ids")).max(100).optional(),
  })
  .strict()
export type SetupShippingType = z.infer<typeof SetupShipping>

/** Where "Send a test" sends: an email address, a phone in international format (+44 7911 123457), or both. */
export const SendTest = z
  .object({
    email: z.email({ error: "email must be an email address" }).max(320).optional(),
    phone: z
      .string({ error: "phone must be a phone number" })
      .max(40, "phone is not a phone number")
      .transform((value, ctx) => {
        const phone = normalisePhoneNumber(value)
        if (!phone.ok) {
          ctx.addIssue({
            code: "custom",
            message: "phone must be a phone number in international format, like +44 7911 123457",
          })
          return z.NEVER
        }
        return phone.e164
      })
      .optional(),
  })
  .strict()
  .refine((body) => body.email || body.phone, { error: "give an email address, a phone number, or both" })
export type SendTestType = z.infer<typeof SendTest>
