-- Drafts (issue #30, PRODUCT.md "drafts"): a cart a salesperson is still listing is `draft`, seen
-- in the console only; and no cart needs an image path any more (without photos it shows its
-- model's drawing or a "photos coming" picture, chosen when it is read: domain/cart-pictures.ts).
-- A listed cart is `available` or `hold`: lists, counts and their indexes say so in those words,
-- so a draft is left out exactly as a sold cart is.

do $$
declare
  name text;
begin
  for name in
    select conname from pg_constraint
    where conrelid = 'golf_carts'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%status%'
  loop
    execute format('alter table golf_carts drop constraint %I', name);
  end loop;
end;
$$;

alter table golf_carts
  add constraint golf_carts_status_check check (status in ('draft', 'available', 'hold', 'sold')),
  alter column image_url drop not null;

-- The per-category totals count listed carts only (migrations 0003, 0007).
create or replace function golf_cart_counts_track() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.status in ('available', 'hold') then
    update golf_cart_counts set total = total - 1 where category = old.category;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.status in ('available', 'hold') then
    insert into golf_cart_counts (category, total) values (new.category, 1)
    on conflict (category) do update set total = golf_cart_counts.total + 1;
  end if;
  return null;
end;
$$;

drop trigger golf_cart_counts_listing_change on golf_carts;
create trigger golf_cart_counts_listing_change
after update of category, status on golf_carts
for each row when (
  old.category is distinct from new.category
  or (old.status in ('available', 'hold')) <> (new.status in ('available', 'hold'))
)
execute function golf_cart_counts_track();

delete from golf_cart_counts;
insert into golf_cart_counts (category, total)
select category, count(*) from golf_carts where status in ('available', 'hold') group by category;

drop index golf_carts_listed_idx;
drop index golf_carts_listed_category_idx;
drop index golf_carts_listed_price_idx;
drop index golf_carts_listed_newest_idx;
create index golf_carts_listed_idx on golf_carts ((status = 'hold'), id) where status in ('available', 'hold');
create index golf_carts_listed_category_idx on golf_carts (category, (status = 'hold'), id) where status in ('available', 'hold');
create index golf_carts_listed_price_idx on golf_carts ((status = 'hold'), price, id) where status in ('available', 'hold');
create index golf_carts_listed_newest_idx on golf_carts ((status = 'hold'), listed_at desc, id desc) where status in ('available', 'hold');

-- A draft's "listed" time is when it is published (the `newest` sort), not when it was started.
create or replace function golf_carts_record() returns trigger language plpgsql as $$
begin
  new.stock_number := coalesce(
    nullif(btrim(new.stock_number), ''),
    'GC-' || case when new.id < 10000 then lpad(new.id::text, 4, '0') else new.id::text end
  );
  if new.status = 'sold' then
    new.sold_at := coalesce(new.sold_at, now());
  else
    new.sold_at := null;
  end if;
  if tg_op = 'UPDATE' then
    new.version := old.version + 1;
    new.updated_at := now();
    if old.status = 'draft' and new.status <> 'draft' then
      new.listed_at := now();
    end if;
  end if;
  return new;
end;
$$;
