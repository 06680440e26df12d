-- Every server keeps visitors' answers (cart lists, pages) until something they show changes
-- (docs/decisions/0012-one-cache-invalidated-by-writes.md). Whoever changes a cart (a server, the
-- staff console, an import, SQL by hand), the database itself tells every listening server on the
-- `visible_changes` channel when the transaction commits. Once per statement, not per row: a bulk
-- import is one notice, and PostgreSQL folds equal notices of one transaction into one.
create function notify_visible_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('visible_changes', tg_table_name);
  return null;
end;
$$;

create trigger golf_carts_visible_change
after insert or update or delete or truncate on golf_carts
for each statement execute function notify_visible_change();
