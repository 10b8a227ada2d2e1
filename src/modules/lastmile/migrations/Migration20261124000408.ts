import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * An order's other deliveries and its cancellation: where a task comes from
 * and its name at the service, a notice for the merchant (an edit after
 * booking), how a booked task was cancelled, a `cancelled` status for tasks
 * of cancelled orders, and a `refused` status for webhooks whose body could
 * not be stored as sent.
 */
export class Migration20261124000408 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_task" add column if not exists "origin" text check ("origin" in ('order', 'exchange', 'claim', 'part', 'return')) null, add column if not exists "name" text null, add column if not exists "notice" jsonb null, add column if not exists "cancellation" jsonb null;`
    )
    this.addSql(
      `update "lastmile_task" set "origin" = case when "kind" = 'return' then 'return' else 'order' end where "origin" is null;`
    )
    this.addSql(`alter table if exists "lastmile_task" drop constraint if exists "lastmile_task_status_check";`)
    this.addSql(
      `alter table if exists "lastmile_task" add constraint "lastmile_task_status_check" check ("status" in ('pending', 'booking', 'booked', 'failed', 'needs_attention', 'cancelled'));`
    )
    this.addSql(
      `alter table if exists "lastmile_webhook_event" drop constraint if exists "lastmile_webhook_event_status_check";`
    )
    this.addSql(
      `alter table if exists "lastmile_webhook_event" add constraint "lastmile_webhook_event_status_check" check ("status" in ('received', 'processed', 'ignored', 'duplicate', 'failed', 'refused'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`update "lastmile_task" set "status" = 'needs_attention' where "status" = 'cancelled';`)
    this.addSql(`alter table if exists "lastmile_task" drop constraint if exists "lastmile_task_status_check";`)
    this.addSql(
      `alter table if exists "lastmile_task" add constraint "lastmile_task_status_check" check ("status" in ('pending', 'booking', 'booked', 'failed', 'needs_attention'));`
    )
    this.addSql(
      `alter table if exists "lastmile_task" drop column if exists "origin", drop column if exists "name", drop column if exists "notice", drop column if exists "cancellation";`
    )
    this.addSql(`update "lastmile_webhook_event" set "status" = 'failed' where "status" = 'refused';`)
    this.addSql(
      `alter table if exists "lastmile_webhook_event" drop constraint if exists "lastmile_webhook_event_status_check";`
    )
    this.addSql(
      `alter table if exists "lastmile_webhook_event" add constraint "lastmile_webhook_event_status_check" check ("status" in ('received', 'processed', 'ignored', 'duplicate', 'failed'));`
    )
  }
}
