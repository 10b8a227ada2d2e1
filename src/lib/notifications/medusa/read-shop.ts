/** The shop as its messages name it: the store's name and its locales (Medusa's store locales), first the default. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export const SHOP_FIELDS = ["id", "name", "supported_locales.locale_code"]

export interface Shop {
  name: string | null
  locales: string[]
}

/** A store row as read with SHOP_FIELDS. */
export function shopOf(
  store: { name?: string | null; supported_locales?: ({ locale_code?: string } | null)[] } | undefined
): Shop {
  return {
    name: store?.name ?? null,
    locales: (store?.supported_locales ?? []).flatMap((l) => (l?.locale_code ? [l.locale_code] : [])),
  }
}

export async function readShop(container: MedusaContainer): Promise<Shop> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "store", fields: SHOP_FIELDS, pagination: { take: 1 } })
  return shopOf(data[0])
}
