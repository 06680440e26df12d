-- The daily backup (BACKUP_DIR), claimed through the database so that one process writes it when
-- several have BACKUP_DIR (issue #48; api/db/backup-files.ts, docs/decisions/0040-deployment-as-written.md).
-- One row: who holds the claim and until when (renewed while it writes), and when the last was written.
create table daily_backup (
  id boolean primary key default true check (id),
  claimed_by text check (length(claimed_by) <= 200),
  claimed_until timestamptz,
  written_at timestamptz,
  file text check (length(file) <= 4096)
);
insert into daily_backup default values;
