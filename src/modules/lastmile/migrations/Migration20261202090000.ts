import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** A collection's life at the store (ARCHITECTURE.md, decision 65): its code, hold, extensions and hand-over. */
export class Migration20261202090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "lastmile_task" add column if not exists "collection" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "lastmile_task" drop column if exists "collection";`)
  }
}
