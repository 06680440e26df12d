-- The second sign-in step (issue #29, PRODUCT.md "second step"): an authenticator app (TOTP,
-- RFC 6238) and 10 single-use recovery codes. The app's secret must be readable to check a code,
-- so it is kept as is (a backup holds it, like the rest of the accounts); the recovery codes are
-- kept as SHA-256 only. A code is accepted once: the last time step used is remembered.
alter table users
  add column totp_secret text check (totp_secret ~ '^[A-Z2-7]{32}$'),
  -- Set when a code from the app was checked; until then the secret is an app being added.
  add column totp_enabled_at timestamptz,
  add column totp_last_counter bigint;

create table staff_recovery_codes (
  user_id integer not null references users (id) on delete cascade,
  code_hash bytea not null check (length(code_hash) = 32),
  used_at timestamptz,
  primary key (user_id, code_hash)
);

-- A sign-in whose password was right and whose second step is asked: the browser holds a random
-- token in a short-lived cookie, the table its SHA-256. It lasts 5 minutes and is used once.
create table staff_sign_in_steps (
  token_hash bytea primary key check (length(token_hash) = 32),
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now()
);
