/** Every minute: retry failed bookings, finish interrupted ones, book orders whose event was missed. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { retryDueBookings } from "../workflows/book-task/run"

export default async function lastmileBookingRetry(container: MedusaContainer): Promise<void> {
  const outcomes = await retryDueBookings(container)
  const count = Object.keys(outcomes).length
  if (count) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(`lastmile: booking job handled ${count} delivery(ies) and return(s): ${JSON.stringify(outcomes)}`)
  }
}

export const config = {
  name: "lastmile-booking-retry",
  schedule: "* * * * *",
}
