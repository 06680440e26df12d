-- The order of the featured carts, chosen by staff (issue #47; PRODUCT.md "featured": "staff
-- choose the order of the featured carts; the home page shows the first three"). Kept apart from
-- the cart's row: reordering the featured set is not an edit of each cart (its version, which the
-- console's forms check, and its "updated" time stay as they were). A featured cart without a
-- place here comes after those with one, oldest first.
create table featured_order (
  cart_id integer primary key references golf_carts (id) on delete cascade,
  place integer not null check (place > 0)
);

-- The featured set is on visitors' pages: a new order clears every process's kept answers, as a
-- cart's own change does (migration 0006).
create trigger featured_order_visible_change
after insert or update or delete or truncate on featured_order
for each statement execute function notify_visible_change();

-- A cart no longer featured leaves the order: featured again later, it comes last, not back to
-- the place it once had.
create function golf_carts_unfeatured() returns trigger language plpgsql as $$
begin
  delete from featured_order where cart_id = new.id;
  return null;
end;
$$;

create trigger golf_carts_unfeatured
after update of featured on golf_carts
for each row when (old.featured and not new.featured)
execute function golf_carts_unfeatured();
