import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * What a task's messages were (sent, failed and when they are retried,
 * skipped), and when the notification pass looks at the task again.
 */
export class Migration20261127185449 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "lastmile_task" add column if not exists "notifications" jsonb null, add column if not exists "notify_at" timestamptz null;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_lastmile_task_notify_at" ON "lastmile_task" ("notify_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_lastmile_task_notify_at";`)
    this.addSql(
      `alter table if exists "lastmile_task" drop column if exists "notifications", drop column if exists "notify_at";`
    )
  }
}
