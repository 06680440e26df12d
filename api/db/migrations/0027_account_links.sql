-- Password resets and invitations (issue #29, PRODUCT.md "password reset" and "accounts in the
-- browser"): a single-use link by email, valid 30 minutes (reset) or 72 hours (invitation), that
-- sets the account's password. The link carries a random 256-bit token; only its SHA-256 is kept,
-- so a copy of this table (a backup) lets nobody set a password. Using one marks it used, and
-- every other unused link of the account with it.
create table staff_account_links (
  token_hash bytea primary key check (length(token_hash) = 32),
  user_id integer not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('reset', 'invite')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

create index staff_account_links_user_idx on staff_account_links (user_id, created_at);

-- Every "Forgot your password?" request, known name or not: the limit per address.
create table staff_reset_requests (
  id bigint generated always as identity primary key,
  address text not null,
  at timestamptz not null default now()
);

create index staff_reset_requests_address_idx on staff_reset_requests (address, at);
