/** The built-in British English words (decision 59): the plugin's own, which `notifications.text` may override. */
import type { Catalogue } from "./catalogue"

const TRACK = "Track your delivery: {tracking_url}\n\nYour tracking code is {tracking_code}."
const ORDER_LINK = "Your order: {order_url}"
const ITEMS = "In this parcel:\n{items}"
const SIGN_OFF = "{shop_name}"
const ADMIN = "Open order {order_number}: {admin_url}"

export const EN_GB: Catalogue = {
  phrases: {
    order: "your order {order_number}",
    order_replacement: "the replacement for your order {order_number}",
    order_part: "part of your order {order_number}",
    greeting: "Hello {first_name},",
    greeting_anonymous: "Hello,",
    today: "today ({date})",
    tomorrow: "tomorrow ({date})",
    today_word: "today",
    tomorrow_word: "tomorrow",
    on_date: "on {date}",
    window_same_day: "{day} between {from} and {to}",
    window_across_days: "between {from} on {from_date} and {to} on {to_date}",
    window_short: "{day} {from}-{to}",
    moment: "{time} {day}",
    from_moment: "from {moment}",
    days_range: "{from} to {to}",
    hours_line: "{days}: {hours}",
    closed: "closed",
    duration_day_one: "{n} day",
    duration_day_other: "{n} days",
    duration_hour_one: "{n} hour",
    duration_hour_other: "{n} hours",
    duration_minute_one: "{n} minute",
    duration_minute_other: "{n} minutes",
    times_one: "once",
    times_two: "twice",
    times_other: "{n} times",
    item_line: "{quantity} × {title}",
    no_reason: "no reason given",
    mode_delivery: "delivery",
    mode_collection: "collection",
    mode_return: "return",
    the_store: "the store",
    problem_failed_attempt: "could not deliver",
    problem_delayed: "has delayed",
    problem_returning: "is bringing back",
    problem_other: "reports a problem with",
    utc_time: "{time} UTC",
  },
  messages: {
    delivery_booked: {
      subject: "{Order} is booked for delivery",
      text: [
        "{greeting}",
        "{Order} is booked with our delivery partner ({rate_name}).",
        "It should arrive {window}.",
        TRACK,
        "We will let you know when it is out for delivery.",
        ITEMS,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
    },
    delivery_out_for_delivery: {
      subject: "{Order} is out for delivery",
      text: [
        "{greeting}",
        "{Order} is on its way to you.",
        "It should arrive {window}.",
        TRACK,
        ITEMS,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\n{Order} is out for delivery.\nArriving {window_short}.\nTrack it: {tracking_url}",
    },
    delivery_problem: {
      subject: "There is a problem with the delivery of {order}",
      text: [
        "{greeting}",
        "The courier has reported a problem with {order}. We are looking into it and will be in touch. The tracking page always shows the latest.",
        TRACK,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\nThere is a problem with the delivery of {order}. We will be in touch.\nTrack it: {tracking_url}",
    },
    delivery_problem_failed_attempt: {
      subject: "We could not deliver {order}",
      text: [
        "{greeting}",
        "The courier tried to deliver {order} but could not. What happens next: the courier will try again, and we will tell you when it is out for delivery again. The tracking page always shows the latest.",
        TRACK,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\nWe could not deliver {order} today. The courier will try again.\nTrack it: {tracking_url}",
    },
    delivery_problem_delayed: {
      subject: "{Order} is delayed",
      text: [
        "{greeting}",
        "{Order} is taking longer than planned to reach you. You do not need to do anything: we will tell you when it is out for delivery. The tracking page always shows the latest.",
        TRACK,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\n{Order} is delayed. We will tell you when it is out for delivery.\nTrack it: {tracking_url}",
    },
    delivery_problem_returning: {
      subject: "{Order} is coming back to us",
      text: [
        "{greeting}",
        "The courier could not deliver {order} and is bringing it back to us. We will be in touch about what happens next.",
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\nThe courier could not deliver {order} and is bringing it back to us. We will be in touch.",
    },
    delivery_delivered: {
      subject: "{Order} has been delivered",
      text: [
        "{greeting}",
        "{Order} was delivered at {delivered_at}.",
        "If you cannot find it, or anything is not right, contact us and quote your order number, {order_number}.",
        ITEMS,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
    },
    collection_booked: {
      subject: "{Order} will be ready to collect at {store_name}",
      text: [
        "{greeting}",
        "{Order} is booked for collection from {store_name}.",
        "It should be ready to collect {window}.",
        "Where:\n{store_name}\n{store_address}",
        "Opening hours:\n{opening_hours}",
        "We will tell you as soon as it is ready. Please wait for that message before you come.",
        ITEMS,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
    },
    collection_ready: {
      subject: "{Order} is ready to collect",
      text: [
        "{greeting}",
        "{Order} is waiting for you at {store_name}.",
        "Where:\n{store_name}\n{store_address}",
        "Opening hours:\n{opening_hours}",
        "When you come, bring your order number, {order_number}, and the name on the order, {full_name}.",
        ITEMS,
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\n{Order} is ready to collect at {store_name}.\nBring your order number, {order_number}.\nDetails: {tracking_url}",
    },
    collection_reminder: {
      subject: "Reminder: {order} is waiting for you at {store_name}",
      text: [
        "{greeting}",
        "{Order} has been ready to collect since {waiting_since}, and is still waiting for you at {store_name}.",
        "Where:\n{store_name}\n{store_address}",
        "Opening hours:\n{opening_hours}",
        "When you come, bring your order number, {order_number}, and the name on the order, {full_name}.",
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
      sms: "{shop_name}:\nReminder: {order} is waiting for you at {store_name}.\nBring your order number, {order_number}.\nDetails: {tracking_url}",
    },
    collection_collected: {
      subject: "You have collected {order}",
      text: [
        "{greeting}",
        "Thank you: {order} was collected from {store_name} at {collected_at}.",
        "If it was not you who collected it, contact us straight away and quote your order number, {order_number}.",
        ORDER_LINK,
        SIGN_OFF,
      ].join("\n\n"),
    },
    return_booked: {
      subject: "Your return for order {order_number} is booked",
      text: [
        "{greeting}",
        "The courier will collect your return for order {order_number}. Please have it packed and ready.",
        "Where: {pickup_address}",
        "When: {window}",
        "Track your return: {tracking_url}",
        ITEMS,
        SIGN_OFF,
      ].join("\n\n"),
    },
    return_received: {
      subject: "We have received your return for order {order_number}",
      text: [
        "{greeting}",
        "Your return for order {order_number} arrived back with us at {received_at}.",
        "We will let you know once we have checked it.",
        SIGN_OFF,
      ].join("\n\n"),
    },
    merchant_booking_failed: {
      subject: "Booking failing: order {order_number}",
      text: [
        "The lastmile booking of {order_number} ({mode}) has failed {attempts}: {reason}. The plugin keeps trying on its own.",
        "It tries again at {next_attempt}.",
        "Use Retry in the order's Lastmile panel to try now.",
        ADMIN,
      ].join("\n\n"),
    },
    merchant_booking_needs_attention: {
      subject: "Booking needs you: order {order_number}",
      text: [
        "The lastmile service did not book the {mode} of {order_number}: {reason}. Nothing is retried until you act: sort out the cause, then use Retry in the order's Lastmile panel.",
        ADMIN,
      ].join("\n\n"),
    },
    merchant_delivery_problem: {
      subject: "Delivery problem: order {order_number}",
      text: ["The courier {problem} {order_number} (the service says {status}).", ADMIN].join("\n\n"),
    },
    merchant_not_collected: {
      subject: "Not collected: order {order_number}",
      text: [
        "{order_number} has been ready to collect at {store_name} since {waiting_since}, and nobody has collected it in {waiting_for}.",
        ADMIN,
      ].join("\n\n"),
    },
    merchant_task_cancelled: {
      subject: "Cancelled by the service: order {order_number}",
      text: [
        "The lastmile service cancelled the {mode} of {order_number} (status {status}). Check the order: it may need sending another way.",
        ADMIN,
      ].join("\n\n"),
    },
  },
}
