-- Lead delivery (issue #5): which cart an inquiry asks about, and an outbox of notifications.

-- The cart a quote came from. The title and price are copied, so the lead still names the cart
-- after the dealer edits or removes it.
alter table contact_inquiries
  add column cart_slug text,
  add column golf_cart_id integer references golf_carts (id) on delete set null,
  add column cart_title text,
  add column cart_price numeric(10, 2);

-- One row per notification to send. Written in the same transaction as the inquiry, so a lead
-- is never stored without its notifications, nor notified without being stored.
create table outbox_messages (
  id integer generated always as identity primary key,
  inquiry_id integer not null references contact_inquiries (id) on delete cascade,
  kind text not null check (kind in ('dealer-email', 'crm-adf', 'visitor-confirmation')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- A worker's claim; one that crashed mid-send loses it when it expires.
  claimed_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  unique (inquiry_id, kind)
);

create index outbox_messages_due_idx on outbox_messages (next_attempt_at) where sent_at is null;
