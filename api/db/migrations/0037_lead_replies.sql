-- Replies from the console (issue #50; PRODUCT.md "replies from the console", "texting",
-- "templates"): every email and text to or from a shopper, every call logged, and the dealer's
-- reply templates.

-- An email or text, out (a reply from the console, sent through the outbox) or in (a text the
-- shopper sent to the dealer's number). The author's name is kept as it was, like notes.
create table lead_messages (
  id integer generated always as identity primary key,
  -- The lead it belongs to; null for a text from a number no customer has.
  inquiry_id integer references contact_inquiries (id) on delete cascade,
  channel text not null check (channel in ('email', 'sms')),
  direction text not null check (direction in ('in', 'out')),
  body text not null check (length(body) between 1 and 10000),
  author_id integer references users (id) on delete set null,
  author text,
  -- Out: the shopper's address or number (E.164). In: the number it came from.
  address text not null check (length(address) between 1 and 254),
  -- queued: in the outbox; waiting: a text held until 08:00 New Jersey time; sent: the mail server
  -- or Twilio took it; delivered, undelivered, failed: Twilio's status callback; not-sent: stopped
  -- before sending (the number withdrew consent); received: in.
  status text not null check (status in ('queued', 'waiting', 'sent', 'delivered', 'undelivered', 'failed', 'not-sent', 'received')),
  status_detail text check (length(status_detail) <= 500),
  -- Twilio's MessageSid, which its status callbacks name.
  provider_id text unique check (length(provider_id) <= 64),
  at timestamptz not null default now(),
  sent_at timestamptz
);

create index lead_messages_inquiry_idx on lead_messages (inquiry_id, id) where inquiry_id is not null;

-- A call the salesperson logged (tapping Call on a phone offers it afterwards).
create table lead_calls (
  id integer generated always as identity primary key,
  inquiry_id integer not null references contact_inquiries (id) on delete cascade,
  outcome text not null check (outcome in ('reached', 'voicemail', 'no-answer')),
  note text check (length(btrim(note)) between 1 and 5000),
  author_id integer references users (id) on delete set null,
  author text not null,
  at timestamptz not null default now()
);

create index lead_calls_inquiry_idx on lead_calls (inquiry_id, id);

-- Reply templates, kept by owners and managers, offered in the reply box.
create table reply_templates (
  id integer generated always as identity primary key,
  name text not null unique check (length(btrim(name)) between 1 and 100),
  body text not null check (length(btrim(body)) between 1 and 5000),
  updated_by text,
  updated_at timestamptz not null default now()
);

-- The outbox sends replies (an email, a text) and alerts of a text that came in: one row per
-- message, so the message is part of what makes a row once.
alter table outbox_messages add column lead_message_id integer references lead_messages (id) on delete cascade;
alter table outbox_messages drop constraint outbox_messages_kind_check;
alter table outbox_messages add constraint outbox_messages_kind_check
  check (kind in ('dealer-email', 'crm-adf', 'visitor-confirmation', 'staff-alert', 'staff-push',
                  'escalation-alert', 'escalation-push', 'account-notice',
                  'reply-email', 'reply-sms', 'text-alert', 'text-push'));
drop index outbox_messages_once;
create unique index outbox_messages_once on outbox_messages (inquiry_id, kind, user_id, push_subscription_id, lead_message_id) nulls not distinct
  where inquiry_id is not null;
