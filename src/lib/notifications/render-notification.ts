/**
 * The words of every message from its data alone (decision 49): subject, summary, plain text and HTML as `content`,
 * rebuilt here by whatever shows a stored message again.
 */
import { momentText } from "./local-time"
import { type LastmileNotificationData, addressWithCountry } from "./notification-data"

export interface RenderedNotification {
  subject: string
  text: string
  html: string
}

type Block = { text: string } | { heading: string; lines: string[] } | { link: string; label: string }

interface Words {
  subject: string
  summary: string
  blocks: Block[]
}

type Body = Omit<LastmileNotificationData, "title" | "description">

function clock(data: Body) {
  return { timeZone: data.time_zone, locale: data.locale, now: new Date(data.written_at) }
}

/** "your order #1001", "the replacement for your order #1001", "part of your order #1001". */
function what(data: Body): string {
  if (data.task.replacement) {
    return `the replacement for your order ${data.order.name}`
  }
  if (data.task.origin === "part") {
    return `part of your order ${data.order.name}`
  }
  return `your order ${data.order.name}`
}

const times = (n: number) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`)

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

function storeName(data: Body): string {
  return data.store?.name?.trim() || data.rate?.name?.trim() || "the store"
}

function trackingBlocks(data: Body, label: string): Block[] {
  if (data.tracking.url) {
    return [{ link: data.tracking.url, label }]
  }
  return data.tracking.code ? [{ text: `Your tracking code is ${data.tracking.code}.` }] : []
}

function storeBlocks(data: Body): Block[] {
  const blocks: Block[] = []
  const address = data.store?.address
  blocks.push({ heading: "Where", lines: [storeName(data), ...(address ? [addressWithCountry(address)] : [])] })
  if (data.store?.opening_hours?.length) {
    blocks.push({ heading: "Opening hours", lines: data.store.opening_hours })
  }
  return blocks
}

function bring(data: Body): Block {
  const name = data.customer.full_name ? `the name on the order, ${data.customer.full_name}` : "your name"
  return { text: `When you come, bring your order number, ${data.order.name}, and ${name}.` }
}

function adminLink(data: Body): Block {
  return { link: data.order.admin_url ?? "", label: `Open order ${data.order.name}` }
}

function shopperWords(data: Body): Words {
  const c = clock(data)
  const order = what(data)
  const Order = capital(order)
  const at = new Date(data.occurred_at)
  switch (data.event) {
    case "delivery_booked": {
      const arrives = data.window ? `It should arrive ${data.window.text}.` : "We will tell you when it is on its way."
      const rate = data.rate?.name ? ` (${data.rate.name})` : ""
      return {
        subject: `${Order} is booked for delivery`,
        summary: arrives,
        blocks: [
          { text: `${Order} is booked with our delivery partner${rate}. ${arrives}` },
          ...trackingBlocks(data, "Track your delivery"),
          { text: "We will let you know when it is out for delivery." },
        ],
      }
    }
    case "delivery_out_for_delivery": {
      const arrives = data.window ? `It should arrive ${data.window.text}.` : "It should arrive soon."
      return {
        subject: `${Order} is out for delivery`,
        summary: `${Order} is on its way to you. ${arrives}`,
        blocks: [{ text: `${Order} is on its way to you. ${arrives}` }, ...trackingBlocks(data, "Track your delivery")],
      }
    }
    case "delivery_problem": {
      const latest = "The tracking page always shows the latest."
      const kind = data.problem?.kind ?? "other"
      const words: Record<typeof kind, { subject: string; text: string }> = {
        failed_attempt: {
          subject: `We could not deliver ${order}`,
          text: `The courier tried to deliver ${order} but could not. What happens next: the courier will try again, and we will email you when it is out for delivery again. ${latest}`,
        },
        delayed: {
          subject: `${Order} is delayed`,
          text: `${Order} is taking longer than planned to reach you. You do not need to do anything: we will email you when it is out for delivery. ${latest}`,
        },
        returning: {
          subject: `${Order} is coming back to us`,
          text: `The courier could not deliver ${order} and is bringing it back to us. We will be in touch about what happens next.`,
        },
        other: {
          subject: `There is a problem with the delivery of ${order}`,
          text: `The courier has reported a problem with ${order}. We are looking into it and will be in touch. ${latest}`,
        },
      }
      return {
        subject: words[kind].subject,
        summary: words[kind].text,
        blocks: [{ text: words[kind].text }, ...trackingBlocks(data, "Track your delivery")],
      }
    }
    case "delivery_delivered":
      return {
        subject: `${Order} has been delivered`,
        summary: `${Order} was delivered at ${momentText(at, c)}.`,
        blocks: [
          { text: `${Order} was delivered at ${momentText(at, c)}.` },
          {
            text: `If you cannot find it, or anything is not right, contact us and quote your order number, ${data.order.name}.`,
          },
        ],
      }
    case "collection_booked": {
      const ready = data.window
        ? `It should be ready to collect ${data.window.text}.`
        : "We will email you as soon as it is ready."
      return {
        subject: `${Order} will be ready to collect at ${storeName(data)}`,
        summary: `${Order} is booked for collection from ${storeName(data)}. ${ready}`,
        blocks: [
          { text: `${Order} is booked for collection from ${storeName(data)}. ${ready}` },
          ...storeBlocks(data),
          { text: "We will email you as soon as it is ready. Please wait for that email before you come." },
        ],
      }
    }
    case "collection_ready":
      return {
        subject: `${Order} is ready to collect`,
        summary: `${Order} is waiting for you at ${storeName(data)}.`,
        blocks: [{ text: `${Order} is waiting for you at ${storeName(data)}.` }, ...storeBlocks(data), bring(data)],
      }
    case "collection_reminder": {
      const since = data.waiting ? ` since ${data.waiting.since_text}` : ""
      return {
        subject: `Reminder: ${order} is waiting for you at ${storeName(data)}`,
        summary: `${Order} has been ready to collect${since}.`,
        blocks: [
          { text: `${Order} has been ready to collect${since}, and is still waiting for you at ${storeName(data)}.` },
          ...storeBlocks(data),
          bring(data),
        ],
      }
    }
    case "collection_collected":
      return {
        subject: `You have collected ${order}`,
        summary: `${Order} was collected from ${storeName(data)} at ${momentText(at, c)}.`,
        blocks: [
          { text: `Thank you: ${order} was collected from ${storeName(data)} at ${momentText(at, c)}.` },
          {
            text: `If it was not you who collected it, contact us straight away and quote your order number, ${data.order.name}.`,
          },
        ],
      }
    case "return_booked": {
      const where = data.pickup_address ? ` from ${data.pickup_address.text}` : ""
      const when = data.window ? ` ${data.window.text}` : ""
      return {
        subject: `Your return for order ${data.order.name} is booked`,
        summary: `The courier will collect your return for order ${data.order.name}${where}${when}.`,
        blocks: [
          {
            text: `The courier will collect your return for order ${data.order.name}${where}${when}. Please have it packed and ready.`,
          },
          ...trackingBlocks(data, "Track your return"),
        ],
      }
    }
    case "return_received":
      return {
        subject: `We have received your return for order ${data.order.name}`,
        summary: `Your return for order ${data.order.name} arrived back with us at ${momentText(at, c)}.`,
        blocks: [
          { text: `Your return for order ${data.order.name} arrived back with us at ${momentText(at, c)}.` },
          { text: "We will let you know once we have checked it." },
        ],
      }
    default:
      throw new Error(`lastmile: ${String(data.event)} is not a shopper's message`)
  }
}

function merchantWords(data: Body): Words {
  const name = data.order.name
  const mode = data.task.mode === "collection" ? "collection" : data.task.kind === "return" ? "return" : "delivery"
  const open = adminLink(data)
  const c = clock(data)
  switch (data.event) {
    case "merchant_booking_failed": {
      const next = data.booking?.next_attempt_at
        ? ` It tries again at ${momentText(new Date(data.booking.next_attempt_at), c)}.`
        : ""
      const summary =
        `The lastmile booking of ${name} (${mode}) has failed ${times(data.booking?.attempts ?? 0)}: ` +
        `${data.booking?.reason ?? "no reason given"}. The plugin keeps trying on its own.${next} ` +
        "Use Retry in the order's Lastmile panel to try now."
      return { subject: `Booking failing: order ${name}`, summary, blocks: [{ text: summary }, open] }
    }
    case "merchant_booking_needs_attention": {
      const summary =
        `The lastmile service did not book the ${mode} of ${name}: ${data.booking?.reason ?? "no reason given"}. ` +
        "Nothing is retried until you act: sort out the cause, then use Retry in the order's Lastmile panel."
      return { subject: `Booking needs you: order ${name}`, summary, blocks: [{ text: summary }, open] }
    }
    case "merchant_delivery_problem": {
      const kind = data.problem?.kind ?? "other"
      const said = {
        failed_attempt: "could not deliver",
        delayed: "has delayed",
        returning: "is bringing back",
        other: "reports a problem with",
      }[kind]
      const summary = `The courier ${said} ${name} (the service says ${data.problem?.status ?? "nothing more"}).`
      return { subject: `Delivery problem: order ${name}`, summary, blocks: [{ text: summary }, open] }
    }
    case "merchant_not_collected": {
      const since = data.waiting ? ` since ${data.waiting.since_text}` : ""
      const summary = `${name} has been ready to collect at ${storeName(data)}${since}, and nobody has collected it${data.waiting ? ` in ${data.waiting.for_text}` : ""}.`
      return { subject: `Not collected: order ${name}`, summary, blocks: [{ text: summary }, open] }
    }
    case "merchant_task_cancelled": {
      const summary = `The lastmile service cancelled the ${mode} of ${name}${data.task.status ? ` (status ${data.task.status})` : ""}. Check the order: it may need sending another way.`
      return { subject: `Cancelled by the service: order ${name}`, summary, blocks: [{ text: summary }, open] }
    }
    default:
      throw new Error(`lastmile: no words for the message ${String(data.event)}`)
  }
}

function words(data: Body): Words {
  return data.audience === "merchant" ? merchantWords(data) : shopperWords(data)
}

/** The data with its title and description: what is stored and what the admin's bell shows. */
export function withTitle(data: Body): LastmileNotificationData {
  const { subject, summary } = words(data)
  const description =
    data.audience === "merchant" && data.order.admin_url ? `${summary}\n${data.order.admin_url}` : summary
  return { ...data, title: subject, description }
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** The subject, plain text and HTML of a message, from its data alone. */
export function renderNotification(data: Body): RenderedNotification {
  const { subject, blocks } = words(data)
  const greeting = data.audience === "shopper" ? `Hello ${data.customer.first_name?.trim() || "there"},` : null
  const text = [
    ...(greeting ? [greeting] : []),
    ...blocks.map((b) =>
      "text" in b ? b.text : "heading" in b ? [`${b.heading}:`, ...b.lines].join("\n") : `${b.label}: ${b.link}`
    ),
  ].join("\n\n")
  const html = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">',
    ...(greeting ? [`<p>${escape(greeting)}</p>`] : []),
    ...blocks.map((b) =>
      "text" in b
        ? `<p>${escape(b.text)}</p>`
        : "heading" in b
          ? `<p><strong>${escape(b.heading)}</strong><br>${b.lines.map(escape).join("<br>")}</p>`
          : `<p><a href="${escape(b.link)}">${escape(b.label)}</a></p>`
    ),
    "</body></html>",
  ].join("\n")
  return { subject, text, html }
}
