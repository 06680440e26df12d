-- Lead alerts (issue #28, point 3; PRODUCT.md "lead alerts"): within seconds of a lead's arrival
-- its assignee (or, unassigned, everyone who takes leads) gets an email with a link to the lead
-- and a Web Push notification on every browser where they turned alerts on. Both go through the
-- outbox, one row per account or browser, so a crash delays them and never loses or doubles one.

-- The server's VAPID key pair, made once by whichever process starts first and kept: every
-- browser's subscription is tied to the public key, so a new pair would silence them all.
create table web_push_keys (
  id boolean primary key default true check (id),
  public_key text not null,
  private_key text not null,
  created_at timestamptz not null default now()
);

-- A browser where someone turned alerts on: the push service's endpoint and the keys the payload
-- is encrypted to. A push service answering 404 or 410 (gone) removes it, with what it had queued.
create table push_subscriptions (
  id integer generated always as identity primary key,
  user_id integer not null references users (id) on delete cascade,
  endpoint text not null unique check (endpoint ~ '^https://' and length(endpoint) <= 2000),
  p256dh text not null check (length(p256dh) <= 200),
  auth text not null check (length(auth) <= 100),
  created_at timestamptz not null default now()
);

create index push_subscriptions_user_idx on push_subscriptions (user_id);

-- Staff alerts are outbox rows addressed to one account (an email) or one browser (a push).
alter table outbox_messages drop constraint outbox_messages_kind_check;
alter table outbox_messages add constraint outbox_messages_kind_check
  check (kind in ('dealer-email', 'crm-adf', 'visitor-confirmation', 'staff-alert', 'staff-push', 'escalation-alert', 'escalation-push'));
alter table outbox_messages
  add column user_id integer references users (id) on delete cascade,
  add column push_subscription_id integer references push_subscriptions (id) on delete cascade;
alter table outbox_messages drop constraint outbox_messages_inquiry_id_kind_key;
alter table outbox_messages add constraint outbox_messages_once
  unique nulls not distinct (inquiry_id, kind, user_id, push_subscription_id);
