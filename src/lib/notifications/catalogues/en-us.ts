/** The built-in American English words (decision 59): British English's, where Americans say it another way. */
import type { Catalogue } from "./catalogue"
import { EN_GB } from "./en-gb"

const TRACK = "Track your delivery: {tracking_url}\n\nYour tracking number is {tracking_code}."

export const EN_US: Catalogue = {
  phrases: {
    ...EN_GB.phrases,
    greeting: "Hi {first_name},",
    greeting_anonymous: "Hi there,",
    window_short: "{day} {from}-{to}",
    days_range: "{from} through {to}",
    item_line: "{quantity} x {title}",
    code_image: "Your pickup code, {code}, as a QR code",
  },
  messages: {
    ...EN_GB.messages,
    delivery_booked: {
      ...EN_GB.messages.delivery_booked,
      subject: "{Order} is scheduled for delivery",
      text: EN_GB.messages.delivery_booked.text
        .replace("is booked with our delivery partner", "is scheduled with our delivery partner")
        .replace(/Track your delivery: \{tracking_url\}\n\nYour tracking code is \{tracking_code\}\./, TRACK),
    },
    delivery_out_for_delivery: {
      ...EN_GB.messages.delivery_out_for_delivery,
      text: EN_GB.messages.delivery_out_for_delivery.text.replace(
        /Track your delivery: \{tracking_url\}\n\nYour tracking code is \{tracking_code\}\./,
        TRACK
      ),
    },
    collection_booked: {
      ...EN_GB.messages.collection_booked,
      subject: "{Order} will be ready for pickup at {store_name}",
      text: EN_GB.messages.collection_booked.text
        .replace("is booked for collection from", "is set for pickup at")
        .replace("It should be ready to collect", "It should be ready for pickup")
        .replace("Opening hours:", "Store hours:"),
    },
    collection_ready: {
      subject: "{Order} is ready for pickup",
      text: EN_GB.messages.collection_ready.text
        .replace("Your collection code is", "Your pickup code is")
        .replace("Please collect it by", "Please pick it up by")
        .replace("bring your collection code", "bring your pickup code")
        .replace("Opening hours:", "Store hours:"),
      sms: "{shop_name}:\n{Order} is ready for pickup at {store_name}.\nCode {collection_code}.\nPick up by {collect_by_short}.\nDetails: {tracking_url}",
    },
    collection_reminder: {
      ...EN_GB.messages.collection_reminder,
      text: EN_GB.messages.collection_reminder.text
        .replace("ready to collect", "ready for pickup")
        .replace("Please collect it by", "Please pick it up by")
        .replace("Your collection code is", "Your pickup code is")
        .replace("bring your collection code", "bring your pickup code")
        .replace("Opening hours:", "Store hours:"),
    },
    collection_extended: {
      ...EN_GB.messages.collection_extended,
      text: EN_GB.messages.collection_extended.text
        .replace("Your collection code is still", "Your pickup code is still")
        .replace("Opening hours:", "Store hours:"),
    },
    collection_collected: {
      ...EN_GB.messages.collection_collected,
      subject: "You picked up {order}",
      text: EN_GB.messages.collection_collected.text.replace("was collected from", "was picked up at"),
    },
    merchant_not_collected: {
      subject: "Not picked up: order {order_number}",
      text: EN_GB.messages.merchant_not_collected.text
        .replace("ready to collect", "ready for pickup")
        .replace("nobody collected it", "nobody picked it up"),
    },
    merchant_task_cancelled: {
      subject: "Canceled by the service: order {order_number}",
      text: EN_GB.messages.merchant_task_cancelled.text.replace("cancelled", "canceled"),
    },
  },
}
