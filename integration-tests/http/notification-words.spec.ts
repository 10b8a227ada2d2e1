/**
 * The merchant's words in the shopper's language over HTTP (decision 59): a supplied catalogue's words and dates, the
 * default's otherwise, and UTC said, with the boot log naming the option, when no time zone is set. */
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { LastmileNotificationData } from "../../src/lib/notifications/notification-data"
import type { NotificationRecord } from "../../src/lib/notifications/notification-record"
import { PluginSettingsService } from "../../src/modules/lastmile/services/plugin-settings"
import { type Admin, adminFor } from "../helpers/admin"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { lastmileTasks, waitForTask } from "../helpers/orders"
import { useSimulator } from "../helpers/simulator"
import { londonShopper, placeOrder } from "../helpers/storefront"
import { TEST_EMAIL_PROVIDER, testMailbox } from "../helpers/test-email-provider"

jest.setTimeout(120_000)

const FRENCH = {
  "fr-FR": {
    delivery_booked: {
      subject: "Votre commande {order_number} est réservée",
      text: "{greeting}\n\nVotre commande {order_number} arrivera {window}.\n\nSuivre la livraison : {tracking_url}\n\n{shop_name}",
    },
    phrases: {
      greeting: "Bonjour {first_name},",
      greeting_anonymous: "Bonjour,",
      today: "aujourd'hui ({date})",
      tomorrow: "demain ({date})",
      on_date: "le {date}",
      window_same_day: "{day} entre {from} et {to}",
      utc_time: "{time} UTC",
    },
  },
}

const { simulator } = useSimulator(
  { locations: londonTestLocations() },
  {
    LASTMILE_TEST_EMAIL_PROVIDER: TEST_EMAIL_PROVIDER,
    LASTMILE_NOTIFICATIONS: JSON.stringify({ text: FRENCH, shop_name: "La Boutique" }),
  }
)

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: Admin
    const london = useLondonStore(simulator, { api, getContainer })

    beforeAll(async () => {
      admin = await adminFor(api, getContainer())
    })

    const order = async (locale?: string) => {
      const { seed, shop } = london
      const email = `words-${locale ?? "none"}-${Date.now()}@example.com`
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email,
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
        ...(locale ? { locale } : {}),
      })
      expect(
        (await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })).status
      ).toBe(200)
      const placed = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), placed.id)
      for (let tries = 0; ; tries++) {
        const kept = (await lastmileTasks(getContainer()).retrieveLastmileTask(task.id))
          .notifications as NotificationRecord | null
        if (kept?.sent?.delivery_booked) {
          break
        }
        expect(tries).toBeLessThan(200)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const listed = await admin.get<{ notifications: { data: LastmileNotificationData }[] }>(
        `/admin/notifications?to=${encodeURIComponent(email)}&fields=data`
      )
      const handed = testMailbox().sent.find((n) => n.to === email)
      return { placed, data: listed.data.notifications[0].data, content: handed?.content }
    }

    it("writes a message for an order in French in the French words and dates the merchant supplied", async () => {
      const { placed, data, content } = await order("fr-FR")
      expect(data.locale).toBe("fr-FR")
      expect(content?.subject).toBe(`Votre commande #${placed.display_id} est réservée`)
      expect(content?.text).toMatch(
        new RegExp(
          `^Bonjour Ada,\\n\\nVotre commande #${placed.display_id} arrivera (demain|aujourd'hui|le) .*(janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre).* entre \\d\\d:\\d\\d UTC et \\d\\d:\\d\\d UTC\\.\\n\\nSuivre la livraison : http`
        )
      )
      expect(content?.text?.endsWith("La Boutique")).toBe(true)
      expect(data.shop.name).toBe("La Boutique")
      expect(data.title).toBe(content?.subject)
    })

    it("writes in the default words a message for an order in a language without words, or without one", async () => {
      for (const locale of ["de-DE", undefined]) {
        const { placed, data, content } = await order(locale)
        expect(data.locale).toBe("en-GB")
        expect(content?.subject).toBe(`Your order #${placed.display_id} is booked for delivery`)
        expect(content?.text).toMatch(/It should arrive .* between \d\d:\d\d UTC and \d\d:\d\d UTC\./)
      }
    })

    it("names notifications.time_zone in the boot log when it is not set", () => {
      expect(PluginSettingsService.of(getContainer()).missingChannelWarnings()).toContainEqual(
        expect.stringContaining("notifications.time_zone is not set")
      )
    })
  },
})
