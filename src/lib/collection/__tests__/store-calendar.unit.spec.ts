import { collectByOf, extendedCollectBy, readinessOnOpenDay } from "../store-calendar"
import { storeCalendarOf, withOpenDayReadiness } from "../readiness"
import { readOpeningHours } from "../store-hours"

// Mon–Sat 09:00–18:00, closed on Sundays, in London.
const hours = {
  timezone: "Europe/London",
  days: {
    mon: { open: "09:00", close: "18:00" },
    tue: { open: "09:00", close: "18:00" },
    wed: { open: "09:00", close: "18:00" },
    thu: { open: "09:00", close: "18:00" },
    fri: { open: "09:00", close: "18:00" },
    sat: { open: "10:00", close: "16:00" },
    sun: null,
  },
}

describe("a store's days", () => {
  it("holds a collection for seven open days, to the closing time of the last, Sundays not counted", () => {
    // Ready on Tuesday 1 December 2026 at 11:00 in London.
    const readyAt = new Date("2026-12-01T11:00:00Z")
    const calendar = storeCalendarOf(hours, [])
    // Wed 2, Thu 3, Fri 4, Sat 5, (Sun 6), Mon 7, Tue 8, Wed 9 → Wednesday 9 December at 18:00.
    expect(collectByOf(readyAt, 7, calendar).toISOString()).toBe("2026-12-09T18:00:00.000Z")
    // A closed date is not counted either: the 8th closed moves it to Thursday 10.
    const closed = storeCalendarOf(hours, ["2026-12-08"])
    expect(collectByOf(readyAt, 7, closed).toISOString()).toBe("2026-12-10T18:00:00.000Z")
    // Ending on a Saturday: its own closing time.
    expect(collectByOf(readyAt, 4, calendar).toISOString()).toBe("2026-12-05T16:00:00.000Z")
  })

  it("closes a late store after midnight, at 24:00, and at its latest span whatever the order listed", () => {
    const readyAt = new Date("2026-12-01T11:00:00Z")
    const late = (close: string) =>
      storeCalendarOf(
        {
          timezone: "Europe/London",
          days: {
            mon: "18:00-" + close,
            tue: "18:00-" + close,
            wed: "18:00-" + close,
            thu: "18:00-" + close,
            fri: "18:00-" + close,
            sat: "18:00-" + close,
            sun: "18:00-" + close,
          },
        },
        []
      )
    // Held 1 open day: Wednesday 2 December, which closes at 02:00 on Thursday, not at 02:00 on Wednesday.
    expect(collectByOf(readyAt, 1, late("02:00")).toISOString()).toBe("2026-12-03T02:00:00.000Z")
    expect(collectByOf(readyAt, 1, late("00:00")).toISOString()).toBe("2026-12-03T00:00:00.000Z")
    // "24:00" is read (not the whole week's hours dropped): the end of Wednesday.
    const allDay = storeCalendarOf({ timezone: "Europe/London", days: { mon: "09:00-24:00", wed: "09:00-24:00" } }, [])
    expect(allDay.hours?.days.map((d) => d.day)).toEqual(["Monday", "Wednesday"])
    expect(collectByOf(readyAt, 1, allDay).toISOString()).toBe("2026-12-03T00:00:00.000Z")
    // Two spans listed afternoon first: the store closes at 19:00.
    const split = storeCalendarOf(
      [
        { day: "Wednesday", open: "15:00", close: "19:00" },
        { day: "Wednesday", open: "09:00", close: "12:00" },
      ],
      [],
      "Europe/London"
    )
    expect(collectByOf(readyAt, 1, split).toISOString()).toBe("2026-12-02T19:00:00.000Z")
  })

  it("counts summer days in the store's zone, not the server's", () => {
    // Ready on Friday 3 July 2026 at 23:30 London time (22:30 UTC): still Friday at the store.
    const readyAt = new Date("2026-07-03T22:30:00Z")
    // Sat 4 (10–16), (Sun), Mon 6 → closes 18:00 London = 17:00 UTC.
    expect(collectByOf(readyAt, 2, storeCalendarOf(hours, [])).toISOString()).toBe("2026-07-06T17:00:00.000Z")
  })

  it("without the service's hours, holds calendar days to the end of the day in the zone it is given", () => {
    const calendar = storeCalendarOf(null, [], "Europe/Paris")
    expect(collectByOf(new Date("2026-12-01T11:00:00Z"), 7, calendar).toISOString()).toBe("2026-12-08T22:59:59.000Z")
    // An unreadable shape is no hours, never a guess.
    expect(storeCalendarOf({ weird: true }, [], "UTC").hours).toBeNull()
    expect(readOpeningHours({ mon: 9 })).toBeNull()
  })

  it("extends from the current collect-by, or from today when it has passed", () => {
    const calendar = storeCalendarOf(hours, [])
    const due = new Date("2026-12-09T18:00:00Z")
    expect(extendedCollectBy(due, 3, calendar, new Date("2026-12-05T12:00:00Z")).toISOString()).toBe(
      "2026-12-12T16:00:00.000Z"
    )
    // Passed by a week: three open days from the day it is extended.
    expect(extendedCollectBy(due, 3, calendar, new Date("2026-12-16T12:00:00Z")).toISOString()).toBe(
      "2026-12-19T16:00:00.000Z"
    )
  })

  it("moves a readiness off the merchant's closed dates to the next open day, from its opening, in the plugin's words", () => {
    const calendar = storeCalendarOf(hours, ["2026-12-25", "2026-12-26"])
    const window = { from: "2026-12-25T09:00:00Z", to: "2026-12-25T18:00:00Z" }
    // 25 and 26 closed, 27 a Sunday: Monday 28 from 09:00.
    expect(readinessOnOpenDay(window, calendar)).toEqual({
      window: { from: "2026-12-28T09:00:00Z", to: "2026-12-28T18:00:00Z" },
      skipped: ["2026-12-25", "2026-12-26"],
      time_known: true,
    })
    const rate = withOpenDayReadiness(
      { window, description: "Ready tomorrow from 09:00.", rateCode: "SVC_COL" },
      calendar
    )
    expect(rate).toEqual({
      rateCode: "SVC_COL",
      window: { from: "2026-12-28T09:00:00Z", to: "2026-12-28T18:00:00Z" },
      description:
        "Ready to collect on Monday 28 December from 09:00: the store is closed on Friday 25 December and Saturday 26 December.",
    })
    // Not on a closed date, or no dates: the service's own words stand.
    expect(withOpenDayReadiness({ window: { from: "2026-12-24T09:00:00Z", to: "x" } }, calendar).window?.from).toBe(
      "2026-12-24T09:00:00Z"
    )
    expect(readinessOnOpenDay(window, storeCalendarOf(hours, []))).toBeNull()
    // Without hours: the next day that is not closed, no time said.
    expect(
      withOpenDayReadiness({ window, description: null }, storeCalendarOf(null, ["2026-12-25"], "Europe/London"))
        .description
    ).toBe("Ready to collect on Saturday 26 December: the store is closed on Friday 25 December.")
  })
})
