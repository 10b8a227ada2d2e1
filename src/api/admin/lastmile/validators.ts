import { z } from "@medusajs/framework/zod"
import { normalisePhoneNumber } from "../../../lib/address/phone-number"
import {
  MAX_CLOSED_YEARS_AHEAD,
  cleanInstructions,
  isCalendarDate,
  isWithinClosedRange,
} from "../../../lib/collection/pickup-settings"

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
  .object({
    confirm: z.literal(true, { error: "confirm must be true: this cancels Medusa's side only" }),
    reason: z
      .literal("not_collected", { error: 'reason must be "not_collected" (a collection nobody came for), or left out' })
      .optional(),
  })
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

/** The shopper's collection code, or the merchant's reason to hand over without it (decision 65). */
export const HandOver = z.union(
  [
    z
      .object({
        code: z
          .string({ error: "code must be the shopper's collection code" })
          .trim()
          .min(1, "code must be the shopper's collection code")
          .max(40, "That code does not match"),
      })
      .strict(),
    z
      .object({
        override_reason: z
          .string({ error: "override_reason must say why it is handed over without the code" })
          .transform((value) => cleanInstructions(value) ?? "")
          .pipe(
            z
              .string()
              .min(3, "override_reason must say why it is handed over without the code (at least 3 characters)")
              .max(500, "override_reason can be at most 500 characters")
          ),
      })
      .strict(),
  ],
  { error: "give the shopper's collection code as code, or why it is handed over without it as override_reason" }
)
export type HandOverType = z.infer<typeof HandOver>

export const ExtendCollection = z
  .object({
    days: z
      .number({ error: "days must be a whole number of open days, from 1 to 30" })
      .int("days must be a whole number of open days, from 1 to 30")
      .min(1, "days must be a whole number of open days, from 1 to 30")
      .max(30, "days must be a whole number of open days, from 1 to 30"),
  })
  .strict()
export type ExtendCollectionType = z.infer<typeof ExtendCollection>

export const StockLocationPickup = z
  .object({
    instructions: z
      .string({ error: "instructions must be text, at most 500 characters" })
      .max(2000, "instructions can be at most 500 characters")
      .transform((value) => cleanInstructions(value))
      .refine((value) => (value?.length ?? 0) <= 500, "instructions can be at most 500 characters")
      .nullable()
      .optional(),
    closed_dates: z
      .array(
        z
          .string()
          .refine(isCalendarDate, "closed_dates must be dates written YYYY-MM-DD, like 2026-12-25")
          .refine(
            (date) => !isCalendarDate(date) || isWithinClosedRange(date),
            `closed_dates can be at most ${MAX_CLOSED_YEARS_AHEAD} years ahead`
          ),
        {
          error: "closed_dates must be a list of dates written YYYY-MM-DD",
        }
      )
      .max(100, "closed_dates can hold at most 100 dates")
      .optional(),
    position: z
      .object(
        {
          latitude: z
            .number({ error: "position.latitude must be a number from -90 to 90" })
            .min(-90, "position.latitude must be a number from -90 to 90")
            .max(90, "position.latitude must be a number from -90 to 90"),
          longitude: z
            .number({ error: "position.longitude must be a number from -180 to 180" })
            .min(-180, "position.longitude must be a number from -180 to 180")
            .max(180, "position.longitude must be a number from -180 to 180"),
        },
        { error: "position must be { latitude, longitude }, or null to clear it" }
      )
      .strict()
      .nullable()
      .optional(),
  })
  .strict()
export type StockLocationPickupType = z.infer<typeof StockLocationPickup>
