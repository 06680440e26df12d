-- The title's reading of make, seats and battery has one home again: domain/specifications.ts
-- and domain/cart-facts.ts (`searchFacts`), which the vehicle page, the API and the in-memory
-- search (api/carts/listed-carts.ts) all read (issue #25, point 4).
--
-- Migrations 0010 and 0015 wrote the same rules a second time in SQL, as generated columns, so
-- the database could filter and index them. Since the search runs in memory over the listed
-- carts (decision 0029) nothing filters on them in SQL, and they cost every cart write a run of
-- the rules in PL/pgSQL besides. The rows keep the stored make, model, seats and battery; what a
-- title implies is computed in TypeScript when the listed carts are read.
alter table golf_carts
  drop column make_key,
  drop column effective_make,
  drop column effective_seats,
  drop column effective_battery;

drop function golf_cart_title_seats(text);
drop function golf_cart_title_battery(text);
drop function golf_cart_platform_text(text, text, text);
drop function golf_cart_make_key(text);
