/** A store's opening hours as a message writes them (lib/collection/store-hours.ts reads them from the service). */
import { type OpeningHours, WEEKDAYS, type Weekday } from "../collection/store-hours"
import { type PhraseId, fill } from "./catalogues/catalogue"
import { intlLocale } from "./local-time"

/** What the hours' words need: the locale (day names) and its phrases ("{from} to {to}", "closed"). */
export type HoursWords = {
  locale: string
  phrases: Pick<Record<PhraseId, string>, "days_range" | "hours_line" | "closed">
}

const ENGLISH: HoursWords = {
  locale: "en-GB",
  phrases: { days_range: "{from} to {to}", hours_line: "{days}: {hours}", closed: "closed" },
}

/** A weekday's name in the locale ("Monday", "lundi"): 2024-01-01 was a Monday. */
function dayName(day: Weekday, locale: string): string {
  const date = new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day), 12))
  return new Intl.DateTimeFormat(intlLocale(locale), { weekday: "long", timeZone: "UTC" }).format(date)
}

/**
 * The hours as lines, runs of days with the same hours joined, in the message's language:
 * ["Monday to Saturday: 09:00–18:00", "Sunday: 11:00–17:00"].
 */
export function openingHoursLines(hours: OpeningHours, words: HoursWords = ENGLISH): string[] {
  const text = (spans: { open: string; close: string }[]) =>
    spans.length ? spans.map((s) => `${s.open}–${s.close}`).join(", ") : words.phrases.closed
  const runs: { first: Weekday; last: Weekday; text: string; index: number }[] = []
  for (const { day, spans } of hours.days) {
    const index = WEEKDAYS.indexOf(day)
    const said = text(spans)
    const run = runs[runs.length - 1]
    if (run && run.text === said && run.index === index - 1) {
      runs[runs.length - 1] = { ...run, last: day, index }
    } else {
      runs.push({ first: day, last: day, text: said, index })
    }
  }
  return runs.map((r) => {
    const days =
      r.first === r.last
        ? dayName(r.first, words.locale)
        : (fill(words.phrases.days_range, {
            from: dayName(r.first, words.locale),
            to: dayName(r.last, words.locale),
          }) ?? "")
    return fill(words.phrases.hours_line, { days, hours: r.text }) ?? `${days}: ${r.text}`
  })
}
