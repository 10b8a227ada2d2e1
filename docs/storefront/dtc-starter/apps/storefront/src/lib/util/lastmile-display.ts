/**
 * How lastmile's texts read: your shoppers' language and the time zone your
 * couriers work in, the same on the server and in the browser (so hydration
 * never mismatches), and whether your shop emails the shopper once a delivery
 * is booked (the plugin's notifications with an email provider): only then
 * does a booking that takes longer say "We will email you when it is booked."
 */
export const LASTMILE_DISPLAY = {
  locale: "en-GB",
  timeZone: process.env.NEXT_PUBLIC_LASTMILE_TIME_ZONE || "Europe/London",
  emailsWhenBooked: process.env.NEXT_PUBLIC_LASTMILE_EMAILS_WHEN_BOOKED === "true",
}
