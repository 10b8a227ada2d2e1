import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * What a task was booked at and for whom: the booked rate (its window, price
 * and CO2 figure, for notifications and insights), whether it is a delivery,
 * a collection or a return, the shipping option and stock location, and when
 * its order was placed. Tasks booked earlier get their mode from what they
 * already say.
 */
export class Migration20261126105727 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_task" add column if not exists "quoted_rate" jsonb null, add column if not exists "mode" text check ("mode" in ('delivery', 'collection', 'return')) null, add column if not exists "shipping_option_id" text null, add column if not exists "stock_location_id" text null, add column if not exists "placed_at" timestamptz null;`
    )
    this.addSql(
      `update "lastmile_task" set "mode" = case when "kind" = 'return' then 'return' when "rate_code" = 'SVC_COL' then 'collection' else 'delivery' end where "mode" is null;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_placed_at" ON "lastmile_task" ("placed_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_lastmile_task_placed_at";`)
    this.addSql(
      `alter table if exists "lastmile_task" drop column if exists "quoted_rate", drop column if exists "mode", drop column if exists "shipping_option_id", drop column if exists "stock_location_id", drop column if exists "placed_at";`
    )
  }
}
