import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Offers are counted per cart and day (ARCHITECTURE.md, decision 50): the counter of carts priced is `cart`, no
 * longer `cart_state`. Days counted before keep their figure under the new name: it counted each state of a cart,
 * so for those days it is an upper bound of the carts.
 */
export class Migration20261201090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_offer_count" drop constraint if exists "lastmile_offer_count_kind_check";`
    )
    this.addSql(`update "lastmile_offer_count" set "kind" = 'cart' where "kind" = 'cart_state';`)
    this.addSql(
      `alter table if exists "lastmile_offer_count" add constraint "lastmile_offer_count_kind_check" check("kind" in ('cart', 'offered', 'unavailable', 'chosen'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_offer_count" drop constraint if exists "lastmile_offer_count_kind_check";`
    )
    this.addSql(`update "lastmile_offer_count" set "kind" = 'cart_state' where "kind" = 'cart';`)
    this.addSql(
      `alter table if exists "lastmile_offer_count" add constraint "lastmile_offer_count_kind_check" check("kind" in ('cart_state', 'offered', 'unavailable', 'chosen'));`
    )
  }
}
