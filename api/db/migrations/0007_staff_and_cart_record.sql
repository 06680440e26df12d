-- The dealer's staff (issue #15): the cart record and its lifecycle, staff sessions, failed
-- sign-ins and the audit log.

-- The cart record (PRODUCT.md). `category` stays SPEC's name for the condition. Facts left null
-- are read from the title (domain/cart-record.ts), so every existing cart keeps its slug and its
-- specifications.
alter table golf_carts
  add column year integer check (year between 1950 and 2100),
  add column make text,
  add column model text,
  add column trim text,
  add column vin text unique check (vin ~ '^[A-HJ-NPR-Z0-9]{17}$'),
  add column serial_number text,
  add column stock_number text unique,
  add column color text,
  add column seats integer check (seats between 1 and 12),
  add column battery text check (battery in ('lithium', 'lead-acid')),
  add column street_legal boolean not null default false,
  add column lifted boolean not null default false,
  add column msrp numeric(10, 2) check (msrp >= 0),
  add column status text not null default 'available' check (status in ('available', 'hold', 'sold')),
  -- For the `newest` sort; existing carts were listed when they were added.
  add column listed_at timestamptz not null default now(),
  -- When the cart was sold: its page says Sold for SOLD_VISIBLE_DAYS, then answers 410.
  add column sold_at timestamptz,
  -- Raised by every update, so a save made on a stale copy is refused instead of undoing another's.
  add column version integer not null default 1;

-- A cart that was not available stays listed, as a hold, rather than vanishing.
update golf_carts
set status = case when available then 'available' else 'hold' end,
    listed_at = created_at,
    stock_number = 'GC-' || case when id < 10000 then lpad(id::text, 4, '0') else id::text end;

-- `available` is true only for status `available` (PRODUCT.md): derived, so the two never disagree.
alter table golf_carts drop column available;
alter table golf_carts add column available boolean generated always as (status = 'available') stored;

-- Whoever writes a cart (the console, an import, SQL by hand), these stay right: a stock number
-- when none is given, the time of sale, the version.
create function golf_carts_record() returns trigger language plpgsql as $$
begin
  new.stock_number := coalesce(
    nullif(btrim(new.stock_number), ''),
    'GC-' || case when new.id < 10000 then lpad(new.id::text, 4, '0') else new.id::text end
  );
  -- A cart becoming sold is sold now (unsold carts have no date, so only a writer that sets one
  -- gives another); one already sold keeps its date.
  if new.status = 'sold' then
    new.sold_at := coalesce(new.sold_at, now());
  else
    new.sold_at := null;
  end if;
  if tg_op = 'UPDATE' then
    new.version := old.version + 1;
    new.updated_at := now();
  end if;
  return new;
end;
$$;

create trigger golf_carts_record
before insert or update on golf_carts
for each row execute function golf_carts_record();

alter table golf_carts alter column stock_number set not null;

-- The per-category totals (migration 0003) count listed carts only: sold carts leave every list.
create or replace function golf_cart_counts_track() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.status <> 'sold' then
    update golf_cart_counts set total = total - 1 where category = old.category;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.status <> 'sold' then
    insert into golf_cart_counts (category, total) values (new.category, 1)
    on conflict (category) do update set total = golf_cart_counts.total + 1;
  end if;
  return null;
end;
$$;

drop trigger golf_cart_counts_category_change on golf_carts;
create trigger golf_cart_counts_listing_change
after update of category, status on golf_carts
for each row when (old.category is distinct from new.category or (old.status = 'sold') <> (new.status = 'sold'))
execute function golf_cart_counts_track();

delete from golf_cart_counts;
insert into golf_cart_counts (category, total)
select category, count(*) from golf_carts where status <> 'sold' group by category;

-- Lists show available carts, then holds, each in the order they were added.
drop index golf_carts_category_id_idx;
create index golf_carts_listed_idx on golf_carts ((status = 'hold'), id) where status <> 'sold';
create index golf_carts_listed_category_idx on golf_carts (category, (status = 'hold'), id) where status <> 'sold';
-- The console's sorts (newest first by default, and by price), and a sold cart's page, which
-- offers the listed carts nearest in price.
create index golf_carts_listed_at_idx on golf_carts (listed_at desc, id desc);
create index golf_carts_price_idx on golf_carts (price, id);

-- Staff accounts are SPEC's `users`.
alter table users
  add column created_at timestamptz not null default now(),
  add column last_sign_in_at timestamptz;

-- One row per signed-in browser. The cookie carries a random token; only its SHA-256 is kept, so
-- a copy of this table signs nobody in. Idle and absolute expiry are checked on every request.
create table staff_sessions (
  token_hash bytea primary key check (length(token_hash) = 32),
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  address text,
  user_agent text
);

create index staff_sessions_user_idx on staff_sessions (user_id);

-- Failed sign-ins, counted per username and per address over a sliding window, shared by every
-- process. Unknown usernames are counted like real ones, so the limit reveals nothing.
create table staff_sign_in_failures (
  id bigint generated always as identity primary key,
  username text not null,
  address text not null,
  at timestamptz not null default now()
);

create index staff_sign_in_failures_username_idx on staff_sign_in_failures (username, at);
create index staff_sign_in_failures_address_idx on staff_sign_in_failures (address, at);

-- Who changed what, when (PRODUCT.md): generic rows that carts, photos, leads and accounts share.
-- `actor` keeps the name as it was, so the history still reads after an account is removed.
create table audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id integer references users (id) on delete set null,
  actor text not null,
  entity text not null check (entity ~ '^[a-z][a-z-]*$'),
  entity_id text not null,
  action text not null check (action in ('create', 'update', 'delete')),
  field text,
  before jsonb,
  after jsonb
);

create index audit_log_entity_idx on audit_log (entity, entity_id, id desc);
