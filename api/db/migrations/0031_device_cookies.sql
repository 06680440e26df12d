-- Store-safe sign-in limits (issue #29, PRODUCT.md "sign-in limits and stores"): a browser that
-- has signed in successfully holds a signed device cookie (OWASP, "Slow Down Online Guessing
-- Attacks with Device Cookies"). Its failures are counted for it alone, so strangers' failures at
-- the same address, or against the same username, neither slow nor lock it.

-- The key that signs device cookies (HMAC-SHA256), made once by the first process that needs it.
create table staff_device_keys (
  id boolean primary key default true check (id),
  secret bytea not null check (length(secret) = 32),
  created_at timestamptz not null default now()
);

-- A failure from a browser with a device cookie for that username: the cookie's nonce. Null for
-- strangers, whose failures count per username and per address as before.
alter table staff_sign_in_failures add column device text check (device ~ '^[A-Za-z0-9_-]{22}$');
create index staff_sign_in_failures_device_idx on staff_sign_in_failures (device, at) where device is not null;
