-- How many carts each category holds, kept by triggers: the inventory's "Page 1 of N" no longer
-- counts every row on every request, so a page costs the same with 24 carts or 10,000.

create table golf_cart_counts (
  category text primary key,
  total integer not null check (total >= 0)
);

insert into golf_cart_counts (category, total)
select category, count(*) from golf_carts group by category;

create function golf_cart_counts_track() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update golf_cart_counts set total = total - 1 where category = old.category;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into golf_cart_counts (category, total) values (new.category, 1)
    on conflict (category) do update set total = golf_cart_counts.total + 1;
  end if;
  return null;
end;
$$;

create trigger golf_cart_counts_insert_delete
after insert or delete on golf_carts
for each row execute function golf_cart_counts_track();

create trigger golf_cart_counts_category_change
after update of category on golf_carts
for each row when (old.category is distinct from new.category)
execute function golf_cart_counts_track();
