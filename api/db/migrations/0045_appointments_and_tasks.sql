-- Appointments and follow-ups (issue #51; PRODUCT.md "appointments", "confirmations and
-- reminders", "follow-ups"; docs/decisions/0046-appointments-and-follow-ups.md).

-- A booked test drive is a lead of its own interest; a service drop-off is a `service` lead.
-- Added to whatever the check allows by now (other migrations add theirs).
do $$
declare
  allowed text;
begin
  select substring(pg_get_constraintdef(oid) from '^CHECK \((.*)\)$') into allowed
  from pg_constraint where conrelid = 'contact_inquiries'::regclass and conname = 'contact_inquiries_interest_check';
  alter table contact_inquiries drop constraint contact_inquiries_interest_check;
  execute format('alter table contact_inquiries add constraint contact_inquiries_interest_check check ((%s) or interest = %L)', allowed, 'test-drive');
end;
$$;

-- One booking: a showroom, a kind, a start. Capacity (APPOINTMENT_CAPACITY a slot per showroom and
-- kind) is checked in the booking's transaction under an advisory lock of the slot
-- (api/appointments/appointment-store.ts). Moving a booking changes its start and its revision
-- (the calendar invitation's SEQUENCE); its link stays the same.
create table appointments (
  id integer generated always as identity primary key,
  inquiry_id integer not null references contact_inquiries (id) on delete cascade,
  showroom text not null check (length(showroom) between 1 and 40),
  kind text not null check (kind in ('test-drive', 'service')),
  starts_at timestamptz not null,
  minutes integer not null check (minutes between 5 and 480),
  -- booked; showed or no-show, marked by staff; cancelled, by the shopper's link.
  status text not null default 'booked' check (status in ('booked', 'showed', 'no-show', 'cancelled')),
  revision integer not null default 1 check (revision >= 1),
  -- The 24-hour reminder was queued (claimed by the upkeep in the transaction that queues it).
  reminded_at timestamptz,
  marked_by integer references users (id) on delete set null,
  marked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index appointments_slot_idx on appointments (showroom, kind, starts_at) where status <> 'cancelled';
create index appointments_day_idx on appointments (starts_at);
create index appointments_reminder_idx on appointments (starts_at) where status = 'booked' and reminded_at is null;
create index appointments_inquiry_idx on appointments (inquiry_id);

-- The key that signs shoppers' links to move or cancel a booking, made by the first process that
-- needs it (as staff_device_keys): a link is the booking's id and its HMAC, so it needs no row.
create table appointment_link_keys (
  id boolean primary key default true check (id),
  secret bytea not null check (length(secret) = 32)
);

-- A follow-up on a lead: a due time and a note. At the due time the lead's owner gets an email and
-- a push, once: `alerted_at` is set in the transaction that queues them. An open task not yet due
-- keeps its lead from escalating.
create table lead_tasks (
  id integer generated always as identity primary key,
  inquiry_id integer not null references contact_inquiries (id) on delete cascade,
  due_at timestamptz not null,
  note text not null check (length(btrim(note)) between 1 and 1000),
  author_id integer references users (id) on delete set null,
  author text,
  created_at timestamptz not null default now(),
  alerted_at timestamptz,
  done_at timestamptz,
  done_by integer references users (id) on delete set null
);

create index lead_tasks_due_idx on lead_tasks (due_at) where done_at is null and alerted_at is null;
create index lead_tasks_open_idx on lead_tasks (inquiry_id, due_at) where done_at is null;

-- The outbox sends a booking's confirmation, reminder and cancellation (one each per revision, in
-- `details`), and a task's alert to its owner (one email, one push a browser).
alter table outbox_messages
  add column appointment_id integer references appointments (id) on delete cascade,
  add column task_id integer references lead_tasks (id) on delete cascade;
drop index outbox_messages_once;
create unique index outbox_messages_once on outbox_messages
  (inquiry_id, kind, user_id, push_subscription_id, lead_message_id, deposit_id, appointment_id, task_id, details)
  nulls not distinct where inquiry_id is not null;

do $$
declare
  allowed text;
begin
  select substring(pg_get_constraintdef(oid) from '^CHECK \((.*)\)$') into allowed
  from pg_constraint where conrelid = 'outbox_messages'::regclass and conname = 'outbox_messages_kind_check';
  alter table outbox_messages drop constraint outbox_messages_kind_check;
  execute format(
    'alter table outbox_messages add constraint outbox_messages_kind_check check ((%s) or kind in (%L, %L, %L, %L, %L))',
    allowed, 'appointment-confirmation', 'appointment-reminder', 'appointment-cancelled', 'task-alert', 'task-push'
  );
end;
$$;
