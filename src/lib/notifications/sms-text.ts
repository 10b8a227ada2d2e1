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
 * The lines joined into one SMS. While too long, as few as possible of the lines that carry neither the order's number
 * nor a link are left out (the later ones first); then the headline is cut at a word, ending "..."; a link is never cut.
 */
export function fitSms(lines: string[], links: string[], keep: (line: string) => boolean = () => false): string {
  const kept = (line: string) => keep(line) || links.some((l) => !!l && line.includes(l))
  const spare = lines.map((line, index) => (kept(line) ? -1 : index)).filter((index) => index >= 0)
  const join = (without: number[]) => lines.filter((_, i) => !without.includes(i)).join(" ")
  // Every set of spare lines, fewest first, and of those the latest lines first: a message has a handful of lines.
  const subsets = Array.from({ length: 2 ** spare.length }, (_, mask) => spare.filter((_, bit) => mask & (1 << bit)))
  subsets.sort((a, b) => a.length - b.length || b.reduce((x, y) => x + y, 0) - a.reduce((x, y) => x + y, 0))
  const fitting = subsets.find((without) => fitsOneSms(join(without)))
  if (fitting) {
    return join(fitting)
  }
  const rest = lines.filter((line) => kept(line))
  const headline = rest.findIndex((line) => !links.some((l) => !!l && line.includes(l)))
  if (headline < 0) {
    return rest.join(" ")
  }
  const words = rest[headline].split(" ")
  while (words.length > 1) {
    words.pop()
    rest[headline] = `${words.join(" ")}...`
    if (fitsOneSms(rest.join(" "))) {
      return rest.join(" ")
    }
  }
  return rest.filter((_, i) => i !== headline).join(" ")
}
