-- Passkeys as a second sign-in step (issue #29, PRODUCT.md "second step"): WebAuthn credentials
-- registered from Your account. A credential's public key is public by nature (it only checks
-- signatures), so it is kept as the authenticator gave it; the counter is the authenticator's
-- signature count, kept to notice a cloned key.
create table staff_passkeys (
  id integer generated always as identity primary key,
  user_id integer not null references users (id) on delete cascade,
  -- The credential's id as the browser names it (base64url), unique across every account.
  credential_id text not null unique check (credential_id ~ '^[A-Za-z0-9_-]+$' and length(credential_id) between 16 and 1400),
  public_key bytea not null check (length(public_key) between 16 and 4096),
  counter bigint not null default 0 check (counter >= 0),
  transports text[] not null default '{}',
  name text not null check (length(name) between 1 and 60),
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index staff_passkeys_user_idx on staff_passkeys (user_id);

-- The account's WebAuthn user handle: random, so it names nobody; made at its first passkey.
alter table users add column webauthn_user_id bytea check (length(webauthn_user_id) = 32);

-- A passkey being added: the challenge the browser's authenticator must sign, one per account,
-- for 5 minutes, used once.
create table staff_passkey_challenges (
  user_id integer primary key references users (id) on delete cascade,
  challenge text not null check (challenge ~ '^[A-Za-z0-9_-]{43}$'),
  created_at timestamptz not null default now()
);

-- A sign-in waiting for its second step: the challenge its passkey must sign, made each time the
-- step's page is shown, used once.
alter table staff_sign_in_steps add column passkey_challenge text check (passkey_challenge ~ '^[A-Za-z0-9_-]{43}$');
