/**
 * Many new carts at once for the capacity benchmarks: copies of one cart made through the store API, written in SQL
 * (its address and lines with it), each a cart never priced; thousands in a second where the API takes minutes.
 */

/** Runs one SQL statement and answers its rows (knex's `raw` in-process, a pg client for a host app). */
export type Sql = (statement: string) => Promise<Record<string, unknown>[]>

const SAFE = /^[A-Za-z0-9_]+$/

function safe(value: string): string {
  if (!SAFE.test(value)) {
    throw new Error(`not an id the copies can name: ${value}`)
  }
  return value
}

async function columnsOf(sql: Sql, table: string): Promise<string[]> {
  const rows = await sql(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '${safe(table)}' ORDER BY ordinal_position`
  )
  return rows.map((r) => String(r.column_name))
}

/**
 * `count` copies of cart `templateId` (its shipping and billing addresses and its lines), ids prefixed with `tag`;
 * answers the copies' ids. The template must hold no shipping method, payment or promotion.
 */
export async function copyCarts(sql: Sql, templateId: string, count: number, tag: string): Promise<string[]> {
  if (count === 0) {
    return []
  }
  const template = safe(templateId)
  const prefix = safe(tag)
  const [cartColumns, addressColumns, lineColumns] = await Promise.all(
    ["cart", "cart_address", "cart_line_item"].map((t) => columnsOf(sql, t))
  )
  const [cart] = await sql(
    `SELECT shipping_address_id, billing_address_id FROM cart WHERE id = '${template}' AND deleted_at IS NULL`
  )
  if (!cart) {
    throw new Error(`no cart ${template} to copy`)
  }
  const fresh = (columns: string[], set: Record<string, string>) => {
    const names = columns.filter((c) => c !== "id")
    return {
      into: ["id", ...names].map((c) => `"${c}"`).join(", "),
      values: names.map((c) => set[c] ?? (c === "created_at" || c === "updated_at" ? "now()" : `t."${c}"`)).join(", "),
    }
  }
  const series = `generate_series(1, ${Math.floor(count)}) AS g`
  for (const kind of ["shipping", "billing"] as const) {
    const addressId = cart[`${kind}_address_id`]
    if (typeof addressId === "string") {
      const { into, values } = fresh(addressColumns, {})
      await sql(
        `INSERT INTO cart_address (${into}) SELECT '${prefix}_${kind[0]}a_' || g, ${values} FROM cart_address t, ${series} WHERE t.id = '${safe(addressId)}'`
      )
    }
  }
  const addresses: Record<string, string> = {}
  for (const kind of ["shipping", "billing"] as const) {
    addresses[`${kind}_address_id`] =
      typeof cart[`${kind}_address_id`] === "string" ? `'${prefix}_${kind[0]}a_' || g` : "NULL"
  }
  {
    const { into, values } = fresh(cartColumns, addresses)
    await sql(
      `INSERT INTO cart (${into}) SELECT 'cart_${prefix}_' || g, ${values} FROM cart t, ${series} WHERE t.id = '${template}'`
    )
  }
  {
    const { into, values } = fresh(lineColumns, { cart_id: `'cart_${prefix}_' || g` })
    await sql(
      `INSERT INTO cart_line_item (${into}) SELECT 'cali_${prefix}_' || t.id || '_' || g, ${values} FROM cart_line_item t, ${series} WHERE t.cart_id = '${template}' AND t.deleted_at IS NULL`
    )
  }
  return Array.from({ length: Math.floor(count) }, (_, i) => `cart_${prefix}_${i + 1}`)
}
