-- Rental and service requests (issue #33, PRODUCT.md "rental requests", "rental calendar",
-- "service requests"). Each request is a lead (a row of contact_inquiries, interest rentals or
-- service) with its details in a table of its own, written in the lead's transaction.

-- The rental fleet: how many carts of each type the dealer rents out. A starting count the
-- manager changes in the console (/staff/rentals); confirmations never reserve more than this.
create table rental_fleet (
  cart_type text primary key check (cart_type in ('4-seater', '6-seater', 'utility')),
  carts integer not null check (carts between 0 and 500),
  updated_at timestamptz not null default now()
);
insert into rental_fleet (cart_type, carts) values ('4-seater', 6), ('6-seater', 4), ('utility', 2);

-- What a renter asked for, as it was priced when asked. The cart is out on the days from
-- start_date up to, not including, end_date (the plan's 24-hour days). `requested` until staff
-- confirm (the cart is then reserved) or decline it.
create table rental_requests (
  inquiry_id integer primary key references contact_inquiries (id) on delete cascade,
  cart_type text not null check (cart_type in ('4-seater', '6-seater', 'utility')),
  plan text not null check (plan in ('daily', '3-day', 'weekly', 'monthly')),
  start_date date not null,
  end_date date not null check (end_date > start_date),
  pickup text not null check (pickup in ('showroom', 'delivery')),
  -- The showroom chosen for a pickup, or the nearest one to the delivery address.
  showroom text,
  street text,
  town text,
  zip text,
  delivery_miles integer check (delivery_miles >= 0),
  delivery_fee numeric(10, 2) check (delivery_fee >= 0),
  price numeric(10, 2) not null check (price >= 0),
  status text not null default 'requested' check (status in ('requested', 'confirmed', 'declined')),
  updated_at timestamptz not null default now(),
  check (pickup = 'showroom' or (street is not null and zip is not null))
);

-- The calendar and every confirmation read the requests of one type that overlap some days.
create index rental_requests_calendar_idx on rental_requests (cart_type, start_date, end_date) where status <> 'declined';

-- The owner's cart and what it needs.
create table service_requests (
  inquiry_id integer primary key references contact_inquiries (id) on delete cascade,
  make text not null check (length(btrim(make)) > 0),
  model text,
  year integer check (year between 1900 and 2200),
  needs text[] not null check (cardinality(needs) > 0),
  preferred_days text[] not null default '{}',
  pickup boolean not null default false
);
