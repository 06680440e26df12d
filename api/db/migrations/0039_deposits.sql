-- Deposits (issue #52; PRODUCT.md "deposits", "holding a cart", "after the hold"): a shopper pays
-- a deposit through Stripe Checkout; only Stripe's signed `checkout.session.completed` makes the
-- hold. A renter's deposit, asked for when a reservation is confirmed, marks it paid.

-- A held cart's hold ends at `hold_until` unless it is sold (api/deposits/hold-upkeep.ts). Any
-- status but `hold` clears it, whoever changes the status (the console, an import, SQL by hand),
-- as `sold_at` follows `sold`.
alter table golf_carts add column hold_until timestamptz;

create function golf_carts_hold_until() returns trigger language plpgsql as $$
begin
  if new.status <> 'hold' then
    new.hold_until := null;
  end if;
  return new;
end;
$$;

create trigger golf_carts_hold_until
before insert or update of status, hold_until on golf_carts
for each row execute function golf_carts_hold_until();

-- A paid deposit is a lead like any other (interest `deposit`), routed and alerted at once.
alter table contact_inquiries drop constraint contact_inquiries_interest_check;
alter table contact_inquiries add constraint contact_inquiries_interest_check
  check (interest in ('denago', 'evolution', 'swift-ev', 'rentals', 'service', 'deposit'));

create table deposits (
  id integer generated always as identity primary key,
  -- `cart`: holds a cart for sale; `rental`: a renter's deposit on a confirmed reservation.
  kind text not null check (kind in ('cart', 'rental')),
  golf_cart_id integer references golf_carts (id) on delete set null,
  -- The lead the deposit belongs to: for a cart, made when the payment completes; for a rental,
  -- the reservation's request.
  inquiry_id integer references contact_inquiries (id) on delete set null,
  -- Stripe's ids: the Checkout Session made for it, and the payment to refund.
  checkout_session_id text unique check (length(checkout_session_id) <= 255),
  payment_intent_id text check (length(payment_intent_id) <= 255),
  refund_id text check (length(refund_id) <= 255),
  amount_cents integer not null check (amount_cents > 0),
  currency text not null default 'usd' check (currency ~ '^[a-z]{3}$'),
  first_name text not null check (length(first_name) between 1 and 100),
  last_name text not null check (length(last_name) between 1 and 100),
  email text not null check (length(email) between 3 and 254),
  phone text check (length(phone) <= 40),
  text_consent boolean not null default false,
  source_url text check (length(source_url) <= 2000),
  source_label text check (length(source_label) <= 100),
  -- open: the shopper was sent to Checkout; held: paid, the cart on hold; paid: a rental's
  -- deposit paid; refunding: a refund asked of Stripe (through the outbox); refunded: Stripe
  -- took it; expired: the hold ended without a sale; sold: the cart sold, the deposit counted.
  status text not null default 'open'
    check (status in ('open', 'held', 'paid', 'refunding', 'refunded', 'expired', 'sold')),
  -- Why a refund: the cart was already held or sold when the payment completed, or staff chose it.
  refund_reason text check (refund_reason in ('taken', 'staff')),
  hold_until timestamptz,
  -- When the cart's owner was told the hold ends the next day (once).
  owner_told_at timestamptz,
  -- A rental's Checkout Session, used again by the renter's link until it closes.
  checkout_url text check (length(checkout_url) <= 2000),
  checkout_closes_at timestamptz,
  created_at timestamptz not null default now(),
  paid_at timestamptz,
  ended_at timestamptz
);

-- One hold per cart, whatever happens: the payment's transaction locks the cart row first, and
-- this index would refuse a second hold even without that lock.
create unique index deposits_one_hold on deposits (golf_cart_id) where status = 'held';
create index deposits_holds_due on deposits (hold_until) where status = 'held';
create index deposits_inquiry_idx on deposits (inquiry_id) where inquiry_id is not null;
create index deposits_recent on deposits (created_at desc, id desc) where status <> 'open';

-- Every Stripe event handled, by id: the same event delivered twice has one effect.
create table stripe_events (
  id text primary key check (length(id) <= 255),
  type text not null check (length(type) <= 100),
  received_at timestamptz not null default now()
);

-- The outbox sends what a deposit needs: the shopper's receipt, a refund asked of Stripe (retried
-- like any message until Stripe takes it), the refunded shopper's email, the cart owner's notice
-- a day before a hold ends, and a renter's deposit link. One row per deposit and kind.
alter table outbox_messages add column deposit_id integer references deposits (id) on delete cascade;
alter table outbox_messages drop constraint outbox_messages_kind_check;
alter table outbox_messages add constraint outbox_messages_kind_check
  check (kind in ('dealer-email', 'crm-adf', 'visitor-confirmation', 'staff-alert', 'staff-push',
                  'escalation-alert', 'escalation-push', 'account-notice', 'reply-email', 'reply-sms', 'text-alert', 'text-push',
                  'deposit-receipt', 'deposit-refund', 'deposit-refunded', 'hold-ending', 'deposit-link'));
drop index outbox_messages_once;
create unique index outbox_messages_once on outbox_messages (inquiry_id, kind, user_id, push_subscription_id, lead_message_id, deposit_id)
  nulls not distinct where inquiry_id is not null;
