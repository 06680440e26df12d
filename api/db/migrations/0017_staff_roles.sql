-- Running the dealership (issue #29, PRODUCT.md): every account has a role and an email address,
-- and can be disabled without being removed; the owner's settings live in one table.

-- `owner` runs accounts and settings, `manager` also deletes carts, imports, assigns leads and
-- sees the dashboard, `sales` works the inventory and the leads (domain/staff-access.ts).
-- The accounts made before roles existed were made by whoever runs the server: they become owners.
alter table users
  add column role text not null default 'sales' check (role in ('owner', 'manager', 'sales')),
  -- For invitations, password resets and lead alerts; optional for accounts made on the command line.
  add column email text check (email ~ '^[^@\s]+@[^@\s]+$' and length(email) <= 254),
  -- A disabled account keeps its history and its leads but cannot sign in; its sessions end.
  add column disabled boolean not null default false;

update users set role = 'owner';

-- One address, one account, however it is capitalised.
create unique index users_email_idx on users (lower(email)) where email is not null;

-- The owner's settings (PRODUCT.md: "an owner can require a second step for every account",
-- lead routing...): one row per setting, its value JSON checked by api/staff/settings.ts, so a
-- new setting needs no migration. Who changed what is in the audit log (entity 'setting').
create table dealer_settings (
  key text primary key check (key ~ '^[a-z][a-zA-Z0-9]*$'),
  value jsonb not null,
  updated_at timestamptz not null default now()
);
