-- The cart a quote is about, as the CRM needs it (issue #17): its stock number, VIN and the
-- record's year, make and model as they were when the visitor asked, beside the title and price
-- already kept. Null where the cart has none (a VIN) or where the record leaves the fact to the
-- title (year, make, model).
alter table contact_inquiries
  add column cart_stock_number text,
  add column cart_vin text,
  add column cart_year integer,
  add column cart_make text,
  add column cart_model text;

update contact_inquiries i
set cart_stock_number = c.stock_number, cart_vin = c.vin, cart_year = c.year, cart_make = c.make, cart_model = c.model
from golf_carts c
where c.id = i.golf_cart_id;

-- Counting the carts an insert or delete adds or removes once per statement, not once per row:
-- an import of 10,000 carts then updates each category's total once (issue #17).
create function golf_cart_counts_statement() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into golf_cart_counts (category, total)
    select category, count(*) from new_rows where status <> 'sold' group by category
    on conflict (category) do update set total = golf_cart_counts.total + excluded.total;
  else
    update golf_cart_counts c set total = c.total - gone.n
    from (select category, count(*)::int as n from old_rows where status <> 'sold' group by category) gone
    where c.category = gone.category;
  end if;
  return null;
end;
$$;

drop trigger golf_cart_counts_insert_delete on golf_carts;
create trigger golf_cart_counts_insert after insert on golf_carts
referencing new table as new_rows for each statement execute function golf_cart_counts_statement();
create trigger golf_cart_counts_delete after delete on golf_carts
referencing old table as old_rows for each statement execute function golf_cart_counts_statement();
