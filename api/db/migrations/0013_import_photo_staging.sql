-- Photos an inventory import has fetched and processed are stored before its transaction, as
-- photos of no cart yet (`cart_id` null, `import_id` naming the import), one photo at a time:
-- megabytes of files sent or copied inside the transaction held the embedded database, which
-- serves one connection, for seconds (ADR 0018). The transaction then only gives each its cart,
-- place and alt text. Nothing that visitors or staff read lists a photo without a cart; an
-- import removes the ones it did not use, and those a crashed import left after a day.
-- For about an hour on 2026-11-26 this file was numbered 0012: a database made then has applied
-- it under that name, so each statement here also holds when it has run before.
alter table cart_photos alter column cart_id drop not null;
alter table cart_photos add column if not exists import_id uuid;
alter table cart_photos drop constraint if exists cart_photos_placed;
alter table cart_photos add constraint cart_photos_placed check (cart_id is not null or import_id is not null);
create index if not exists cart_photos_import_idx on cart_photos (import_id) where import_id is not null;
