/**
 * A text message that fits one SMS (decision 60): at most 160 GSM-7 characters, or 70 when it needs Unicode, as
 * Twilio's own segment calculator counts them. Lines the message can spare go first; its headline and its link stay.
 */
import { SegmentedMessage } from "sms-segments-calculator"

/** Whether a text is one SMS segment. */
export function fitsOneSms(text: string): boolean {
  return new SegmentedMessage(text).segmentsCount <= 1
}

/** How a text is sent: its encoding and characters, as the segment calculator counts them. */
export function smsShape(text: string): { encoding: string; characters: number; segments: number } {
  const message = new SegmentedMessage(text)
  return { encoding: message.encodingName, characters: message.numberOfCharacters, segments: message.segmentsCount }
}

/**
 * The lines joined into one SMS: while too long, the lines that are neither the headline (the first) nor carry a link
 * are left out, last first; then the headline is cut at a word, ending "..."; the link is never cut.
 */
export function fitSms(lines: string[], links: string[]): string {
  const kept = lines.map((text, index) => ({ text, keep: index === 0 || links.some((l) => !!l && text.includes(l)) }))
  const joined = () => kept.map((l) => l.text).join(" ")
  for (let i = kept.length - 1; i >= 0 && !fitsOneSms(joined()); i--) {
    if (!kept[i].keep) {
      kept.splice(i, 1)
    }
  }
  if (fitsOneSms(joined()) || !kept.length) {
    return joined()
  }
  const headline = kept[0]
  if (links.some((l) => !!l && headline.text.includes(l))) {
    return joined()
  }
  const words = headline.text.split(" ")
  while (words.length > 1) {
    words.pop()
    headline.text = `${words.join(" ")}...`
    if (fitsOneSms(joined())) {
      return joined()
    }
  }
  return kept.slice(1).length
    ? kept
        .slice(1)
        .map((l) => l.text)
        .join(" ")
    : joined()
}
