/**
 * The words of every message from its data alone (decisions 49 and 59): subject, text and HTML as `content`, and the
 * SMS, in the catalogue of the message's locale, rebuilt the same by whatever shows a stored message again; a collection code's QR image.
 */
import {
  type Catalogue,
  type MessageId,
  type MessageWords,
  type PhraseId,
  type Values,
  fill,
  fillLines,
  fillParagraphs,
} from "./catalogues/catalogue"
import { BUILT_IN_CATALOGUES, DEFAULT_LOCALE, type Words, catalogueFor } from "./catalogues/catalogues"
import { type Clock, intlLocale, momentText, timesText } from "./local-time"
import { type LastmileNotificationData, addressWithCountry } from "./notification-data"
import { fitSms } from "./sms-text"
import { toDataURL } from "qrcode"

export interface RenderedNotification {
  subject: string
  text: string
  html: string
}

type Body = Omit<LastmileNotificationData, "title" | "description">

/** The built-in words only: what a page that lists stored messages uses when it has no options of its own. */
export const BUILT_IN_WORDS: Words = { defaultLocale: DEFAULT_LOCALE, catalogues: BUILT_IN_CATALOGUES }

/** A message's id in the catalogue: a delivery problem is worded by its kind. */
export function messageIdOf(data: Pick<Body, "event" | "problem">): MessageId {
  const kind = data.problem?.kind
  return data.event === "delivery_problem" && kind && kind !== "other" ? `delivery_problem_${kind}` : data.event
}

function wordsOf(data: Body, words: Words): { catalogue: Catalogue; message: MessageWords } {
  const { catalogue } = catalogueFor(words, data.locale)
  const id = messageIdOf(data)
  return { catalogue, message: catalogue.messages[id] ?? catalogue.messages[data.event] }
}

function clockOf(data: Body, catalogue: Catalogue): Clock {
  return {
    timeZone: data.time_zone,
    locale: data.locale,
    now: new Date(data.written_at),
    phrases: catalogue.phrases,
    utc: data.time_zone === "UTC" || data.time_zone === "Etc/UTC",
  }
}

/** Every value a message's words may use, from its data. */
export function messageValues(data: Body, catalogue: Catalogue): Values {
  const phrase = (id: PhraseId, values: Values = {}) => fill(catalogue.phrases[id], values) ?? ""
  const clock = clockOf(data, catalogue)
  const at = (iso: string | null | undefined) =>
    iso && !Number.isNaN(Date.parse(iso)) ? momentText(new Date(iso), clock) : null
  const orderNumber = data.order.name
  const order = phrase(
    data.task.replacement ? "order_replacement" : data.task.origin === "part" ? "order_part" : "order",
    { order_number: orderNumber }
  )
  const locale = intlLocale(data.locale)
  const firstName = data.customer.first_name
  const mode = data.task.mode === "collection" ? "collection" : data.task.kind === "return" ? "return" : "delivery"
  const store = data.store
  return {
    shop_name: data.shop?.name ?? null,
    order_number: orderNumber,
    order,
    Order: order.charAt(0).toLocaleUpperCase(locale) + order.slice(1),
    greeting: firstName ? phrase("greeting", { first_name: firstName }) : phrase("greeting_anonymous"),
    first_name: firstName,
    full_name: data.customer.full_name,
    items: (data.items ?? [])
      .map((item) => phrase("item_line", { quantity: String(item.quantity), title: item.title }))
      .join("\n"),
    tracking_url: data.tracking.url,
    tracking_code: data.tracking.code,
    order_url: data.order.url ?? null,
    window: data.window?.text ?? null,
    window_short: data.window?.short_text ?? null,
    rate_name: data.rate?.name ?? null,
    status: data.problem?.status ?? data.task.status,
    delivered_at: at(data.occurred_at),
    collected_at: at(data.occurred_at),
    received_at: at(data.occurred_at),
    store_name: store?.name?.trim() || data.rate?.name?.trim() || phrase("the_store"),
    store_address: store?.address ? addressWithCountry(store.address) : null,
    opening_hours: store?.opening_hours?.length ? store.opening_hours.join("\n") : null,
    store_instructions: store?.instructions ?? null,
    collect_by: data.collection?.collect_by_text ?? null,
    collect_by_short: data.collection?.collect_by_short ?? null,
    collection_code: data.collection?.code_text ?? null,
    pickup_address: data.pickup_address?.text ?? null,
    waiting_since: data.waiting?.since_text ?? null,
    waiting_for: data.waiting?.for_text ?? null,
    admin_url: data.order.admin_url,
    mode: phrase(`mode_${mode}`),
    reason: data.booking?.reason ?? phrase("no_reason"),
    attempts: timesText(data.booking?.attempts ?? 0, clock),
    next_attempt: at(data.booking?.next_attempt_at),
    problem: phrase(`problem_${data.problem?.kind ?? "other"}`),
  }
}

interface Written {
  subject: string
  paragraphs: string[]
  values: Values
}

function write(data: Body, words: Words): Written {
  const { catalogue, message } = wordsOf(data, words)
  const values = messageValues(data, catalogue)
  const subject = (fill(message.subject, values) ?? fill(catalogue.messages[data.event].subject, values) ?? "").trim()
  return { subject, paragraphs: fillParagraphs(message.text, values), values }
}

/** The data with its title and description: what is stored and what the admin's bell shows. */
export function withTitle(data: Body, words: Words = BUILT_IN_WORDS): LastmileNotificationData {
  const { subject, paragraphs, values } = write(data, words)
  const summary = paragraphs.find((p) => p !== values.greeting) ?? subject
  const description =
    data.audience === "merchant" && data.order.admin_url && !summary.includes(data.order.admin_url)
      ? `${summary}\n${data.order.admin_url}`
      : summary
  return { ...data, title: subject, description }
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

function linkLabelled(html: string, links: string[]): string {
  return links.reduce((out, link) => {
    const escaped = escape(link)
    return out.split(escaped).join(`<a href="${escaped}">${escaped}</a>`)
  }, html)
}

/** The subject, plain text and HTML of a message, from its data alone. */
export function renderNotification(data: Body, words: Words = BUILT_IN_WORDS): RenderedNotification {
  const { subject, paragraphs, values } = write(data, words)
  const { catalogue } = wordsOf(data, words)
  const links = [values.tracking_url, values.order_url, values.admin_url].filter((l): l is string => !!l)
  const lang = escape(intlLocale(data.locale))
  const code = values.collection_code
  const qr = data.collection?.qr_image
  // The code's QR image follows the paragraph that gives the code (decision 65): only a PNG the plugin drew.
  const qrFigure =
    code && qr && /^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(qr)
      ? `<p><img src="${qr}" width="192" height="192" alt="${escape(fill(catalogue.phrases.code_image, { code }) ?? code)}"></p>`
      : null
  let qrPlaced = false
  const html = [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escape(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">',
    ...paragraphs.flatMap((p) => {
      const shown = `<p>${linkLabelled(p.split("\n").map(escape).join("<br>"), links)}</p>`
      if (qrFigure && !qrPlaced && code && p.includes(code)) {
        qrPlaced = true
        return [shown, qrFigure]
      }
      return [shown]
    }),
    "</body></html>",
  ].join("\n")
  return { subject, text: paragraphs.join("\n\n"), html }
}

/** The text message of a message that goes by SMS (one segment, with its link); null for one that does not. */
export function renderSms(data: Body, words: Words = BUILT_IN_WORDS): string | null {
  const { catalogue, message } = wordsOf(data, words)
  const template = message.sms ?? catalogue.messages[data.event]?.sms
  if (!template) {
    return null
  }
  const values = messageValues(data, catalogue)
  const lines = fillLines(template, values)
  const order = values.order_number ?? ""
  return lines.length ? fitSms(lines, [values.tracking_url ?? ""], (line) => !!order && line.includes(order)) : null
}

/**
 * A collection code as a QR image for the shopper's email (decision 65), drawn by the `qrcode` library: the code
 * alone, so a counter's scanner types it into Hand over.
 */
type WithCollection = Pick<LastmileNotificationData, "collection">

/** The data with its code's QR image (a PNG `data:` URL); unchanged when it carries no code. */
export async function withCollectionQr<T extends WithCollection>(data: T): Promise<T> {
  const code = data.collection?.code
  if (!code || !data.collection) {
    return data
  }
  const qr_image = await toDataURL(code, { errorCorrectionLevel: "M", margin: 2, width: 192 })
  return { ...data, collection: { ...data.collection, qr_image } }
}
