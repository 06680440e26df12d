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
