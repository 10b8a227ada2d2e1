import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261121135421 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_task" drop constraint if exists "lastmile_task_merchant_order_id_unique";`
    )
    this.addSql(
      `create table if not exists "lastmile_task" ("id" text not null, "kind" text check ("kind" in ('delivery', 'return')) not null default 'delivery', "order_id" text not null, "fulfillment_id" text null, "return_id" text null, "merchant_order_id" text not null, "status" text check ("status" in ('pending', 'booking', 'booked', 'failed', 'needs_attention')) not null default 'pending', "task_id" text null, "tracking_id" text null, "tracking_url" text null, "rate_code" text null, "delivery_type" text null, "merchant_location_id" text null, "service_status" text null, "status_history" jsonb not null default '{"entries":[]}', "attempts" integer not null default 0, "last_error" text null, "next_attempt_at" timestamptz null, "booked_at" timestamptz null, "adopted" boolean not null default false, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "lastmile_task_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_order_id" ON "lastmile_task" ("order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_lastmile_task_merchant_order_id_unique" ON "lastmile_task" ("merchant_order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_deleted_at" ON "lastmile_task" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_status_next_attempt_at" ON "lastmile_task" ("status", "next_attempt_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "lastmile_task" cascade;`)
  }
}
