import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * The offer counters of delivery insights: per day, lastmile fulfillment
 * option, stock location and reason, with a unique key the flush adds its
 * increments on (ARCHITECTURE.md, decision 50).
 */
export class Migration20261127185053 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_offer_count" drop constraint if exists "lastmile_offer_count_day_kind_fulfillment_option_stock_location_id_reason_unique";`
    )
    this.addSql(
      `create table if not exists "lastmile_offer_count" ("id" text not null, "day" text not null, "kind" text check ("kind" in ('cart_state', 'offered', 'unavailable', 'chosen')) not null, "fulfillment_option" text not null default '', "stock_location_id" text not null default '', "reason" text not null default '', "count" integer not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "lastmile_offer_count_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_offer_count_deleted_at" ON "lastmile_offer_count" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_lastmile_offer_count_day_kind_fulfillment_option_stock_location_id_reason_unique" ON "lastmile_offer_count" ("day", "kind", "fulfillment_option", "stock_location_id", "reason") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "lastmile_offer_count" cascade;`)
  }
}
