import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261121145236 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_webhook_event" drop constraint if exists "lastmile_webhook_event_first_of_event_unique";`
    )
    this.addSql(
      `create table if not exists "lastmile_webhook_event" ("id" text not null, "event_key" text not null, "first_of_event" text null, "lastmile_task_id" text null, "task_reference" text null, "status" text check ("status" in ('received', 'processed', 'ignored', 'duplicate', 'failed')) not null default 'received', "outcome" text null, "payload" jsonb not null, "processed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "lastmile_webhook_event_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_webhook_event_event_key" ON "lastmile_webhook_event" ("event_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_lastmile_webhook_event_first_of_event_unique" ON "lastmile_webhook_event" ("first_of_event") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_webhook_event_lastmile_task_id" ON "lastmile_webhook_event" ("lastmile_task_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_webhook_event_deleted_at" ON "lastmile_webhook_event" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_webhook_event_lastmile_task_id_status" ON "lastmile_webhook_event" ("lastmile_task_id", "status") WHERE deleted_at IS NULL;`
    )

    this.addSql(
      `alter table if exists "lastmile_task" add column if not exists "tracking_state" text check ("tracking_state" in ('awaiting', 'shipped', 'delivered', 'cancelled')) not null default 'awaiting', add column if not exists "unmapped_status" text null, add column if not exists "last_checked_at" timestamptz null;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_task_id" ON "lastmile_task" ("task_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_tracking_id" ON "lastmile_task" ("tracking_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_status_tracking_state_last_checked_at" ON "lastmile_task" ("status", "tracking_state", "last_checked_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "lastmile_webhook_event" cascade;`)

    this.addSql(`drop index if exists "IDX_lastmile_task_task_id";`)
    this.addSql(`drop index if exists "IDX_lastmile_task_tracking_id";`)
    this.addSql(`drop index if exists "IDX_lastmile_task_status_tracking_state_last_checked_at";`)
    this.addSql(
      `alter table if exists "lastmile_task" drop column if exists "tracking_state", drop column if exists "unmapped_status", drop column if exists "last_checked_at";`
    )
  }
}
