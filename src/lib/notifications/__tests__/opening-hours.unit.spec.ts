import { alwaysOpenHours, londonHours } from "../../../../packages/simulator/src"
import { openingHoursLines } from "../opening-hours"
import { readOpeningHours } from "../../collection/store-hours"

const lines = (value: unknown) => {
  const hours = readOpeningHours(value)
  return hours && openingHoursLines(hours)
}

describe("a store's opening hours", () => {
  it("reads the simulator's shape, with its time zone, and joins days with the same hours", () => {
    expect(readOpeningHours(londonHours())?.time_zone).toBe("Europe/London")
    expect(lines(londonHours())).toEqual(["Monday to Saturday: 09:00–18:00", "Sunday: 11:00–17:00"])
    expect(lines(alwaysOpenHours())).toEqual(["Monday to Sunday: 00:00–23:59"])
  })

  it("reads days by full name, strings, split hours and closed days", () => {
    expect(
      lines({
        MONDAY: "9:00-17:30",
        tuesday: [
          { opens: "09:00", closes: "12:00" },
          { opens: "13:00", closes: "17:30" },
        ],
        Wed: null,
        sun: "closed",
      })
    ).toEqual(["Monday: 09:00–17:30", "Tuesday: 09:00–12:00, 13:00–17:30", "Wednesday: closed", "Sunday: closed"])
  })

  it("reads a list of days", () => {
    expect(
      lines([
        { day: "MONDAY", open: "08:00", close: "20:00" },
        { dayOfWeek: "TUESDAY", from: "08:00", to: "20:00" },
      ])
    ).toEqual(["Monday to Tuesday: 08:00–20:00"])
  })

  it("reads anything else as no hours rather than guess", () => {
    for (const value of [null, "Mon-Fri 9-5", { monday: "morning" }, { timezone: "Europe/London" }, [{ day: 1 }], 42]) {
      expect(readOpeningHours(value)).toBeNull()
    }
    expect(readOpeningHours({ timezone: "Mars/Olympus", mon: "09:00-17:00" })?.time_zone).toBeNull()
  })
})
