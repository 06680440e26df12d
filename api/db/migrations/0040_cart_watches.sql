-- Shoppers watching a cart or a search (issue #53; PRODUCT.md "watching a cart or a search" and
-- "what watchers get"; docs/decisions/0045-cart-alerts.md).

-- One watch: a cart (its price drops, it comes off hold, it is sold) or a search (new carts that
-- match it), told by email or by Web Push to one browser. An email watch waits for its link to
-- be followed (double opt-in); a browser's watch is confirmed by the browser's own permission.
create table cart_watches (
  id integer generated always as identity primary key,
  email text check (email is null or (position('@' in email) > 1 and length(email) <= 254)),
  push_endpoint text check (push_endpoint is null or (push_endpoint ~ '^https://' and length(push_endpoint) <= 2000)),
  push_p256dh text check (length(push_p256dh) <= 200),
  push_auth text check (length(push_auth) <= 100),
  cart_id integer references golf_carts (id) on delete cascade,
  -- The search's filters as domain/cart-query.ts reads them (no sort), and the same as an
  -- address's query in its one order (`cartSearchParams`), so one search is one watch.
  search jsonb,
  search_key text,
  -- Random, each link's own: the confirmation's is cleared by upkeep with the unconfirmed watch.
  confirm_token text unique,
  unsubscribe_token text not null unique,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  -- What the watcher was last told about its cart: an alert is a price below this, or a hold
  -- that ended. Set when the watch is confirmed.
  told_price numeric(10, 2),
  told_status text,
  last_alert_at timestamptz,
  -- An alert the daily limit held back is looked at again at this time.
  deferred_until timestamptz,
  -- A sold cart's watch ends with its last email; the row is deleted once that is sent.
  ended_at timestamptz,
  constraint cart_watches_one_recipient check (
    (email is null) <> (push_endpoint is null)
    and (push_endpoint is null or (push_p256dh is not null and push_auth is not null))
  ),
  constraint cart_watches_one_subject check ((cart_id is null) <> (search is null) and (search is null) = (search_key is null))
);

create unique index cart_watches_email_cart_idx on cart_watches (lower(email), cart_id) where email is not null and cart_id is not null;
create unique index cart_watches_email_search_idx on cart_watches (lower(email), search_key) where email is not null and search_key is not null;
create unique index cart_watches_push_cart_idx on cart_watches (push_endpoint, cart_id) where push_endpoint is not null and cart_id is not null;
create unique index cart_watches_push_search_idx on cart_watches (push_endpoint, search_key) where push_endpoint is not null and search_key is not null;
create index cart_watches_cart_idx on cart_watches (cart_id) where cart_id is not null;
create index cart_watches_searches_idx on cart_watches (id) where search is not null and confirmed_at is not null;
create index cart_watches_deferred_idx on cart_watches (deferred_until) where deferred_until is not null;

-- What may interest a watcher, recorded by the database whoever changes a cart (the console, a
-- bulk change, an import, a hold running out, SQL by hand), in the change's own transaction: the
-- alert worker (api/alerts/alert-dispatch.ts) claims these rows and queues the alerts in one
-- transaction, so a change is never lost or told twice across restarts and processes.
create table cart_alert_events (
  id bigint generated always as identity primary key,
  cart_id integer not null references golf_carts (id) on delete cascade,
  kind text not null check (kind in ('price-drop', 'held', 'available-again', 'sold', 'listed')),
  at timestamptz not null default now(),
  handled_at timestamptz
);

create index cart_alert_events_waiting_idx on cart_alert_events (id) where handled_at is null;

create function record_cart_alert_event() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into cart_alert_events (cart_id, kind) values (new.id, 'listed');
  elsif new.status = 'sold' then
    insert into cart_alert_events (cart_id, kind) values (new.id, 'sold');
  elsif old.status = 'draft' then
    insert into cart_alert_events (cart_id, kind) values (new.id, 'listed');
  else
    if old.status = 'hold' and new.status = 'available' then
      insert into cart_alert_events (cart_id, kind) values (new.id, 'available-again');
    elsif old.status = 'available' and new.status = 'hold' then
      -- Not news in itself; its watchers will hear when the hold ends.
      insert into cart_alert_events (cart_id, kind) values (new.id, 'held');
    end if;
    if new.price < old.price then
      insert into cart_alert_events (cart_id, kind) values (new.id, 'price-drop');
    end if;
  end if;
  return null;
end;
$$;

create trigger golf_carts_alert_listed
after insert on golf_carts
for each row when (new.status in ('available', 'hold'))
execute function record_cart_alert_event();

create trigger golf_carts_alert_change
after update of price, status on golf_carts
for each row when (
  new.status in ('available', 'hold', 'sold')
  and (new.price < old.price or new.status is distinct from old.status)
  and not (old.status = 'sold' and new.status = 'sold')
)
execute function record_cart_alert_event();

-- "The same address is never emailed about a cart more than once a day": when each address (or
-- browser) last heard about each cart, kept a day, whatever became of the watch meanwhile.
create table cart_alert_sends (
  recipient text not null,
  cart_id integer not null references golf_carts (id) on delete cascade,
  sent_at timestamptz not null,
  primary key (recipient, cart_id)
);

-- New carts that match a watched search, until the search's daily digest lists them.
create table cart_watch_matches (
  watch_id integer not null references cart_watches (id) on delete cascade,
  cart_id integer not null references golf_carts (id) on delete cascade,
  matched_at timestamptz not null,
  digested_at timestamptz,
  primary key (watch_id, cart_id)
);

create index cart_watch_matches_waiting_idx on cart_watch_matches (watch_id) where digested_at is null;

-- Watchers' messages are outbox rows about a watch instead of a lead (decision 0005: sent by the
-- one worker, claimed with SKIP LOCKED, never lost or doubled), with what each one tells. A row is
-- about exactly one thing: a lead, an account notice (migration 0034) or a watch. The rule that a
-- lead's messages are one of each (migration 0034's partial index) does not cover them.
alter table outbox_messages
  add column watch_id integer references cart_watches (id) on delete cascade,
  add column details jsonb;
alter table outbox_messages drop constraint if exists outbox_messages_notice_check;
alter table outbox_messages add constraint outbox_messages_about_one
  check (num_nonnulls(inquiry_id, notice, watch_id) = 1 and (kind = 'account-notice') = (notice is not null));

create index outbox_messages_watch_idx on outbox_messages (watch_id) where watch_id is not null;

-- The watchers' kinds are added to whatever kinds the check allows by now (other migrations add
-- theirs), not written over them with a list of this one's time.
do $$
declare
  allowed text;
begin
  select substring(pg_get_constraintdef(oid) from '^CHECK \((.*)\)$') into allowed
  from pg_constraint where conrelid = 'outbox_messages'::regclass and conname = 'outbox_messages_kind_check';
  alter table outbox_messages drop constraint outbox_messages_kind_check;
  execute format(
    'alter table outbox_messages add constraint outbox_messages_kind_check check ((%s) or kind in (%L, %L, %L))',
    allowed, 'watch-confirm', 'watch-alert', 'watch-push'
  );
end;
$$;
