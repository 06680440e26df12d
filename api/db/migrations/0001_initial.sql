-- Carts, inquiries and users (docs/PRODUCT.md, "Carts"), plus what the site needs to find and trace them.

create table golf_carts (
  id integer generated always as identity primary key,
  -- The canonical slug (docs/PRODUCT.md, "Slugs"), unique; duplicates get -2, -3.
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  -- The alternative reading of the title's slug, so old links still find the cart.
  alternative_slug text not null,
  title text not null check (length(btrim(title)) > 0),
  description text not null,
  price numeric(10, 2) not null check (price >= 0),
  image_url text not null,
  category text not null default 'new' check (length(btrim(category)) > 0),
  featured boolean not null default false,
  available boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index golf_carts_category_id_idx on golf_carts (category, id);
create index golf_carts_featured_id_idx on golf_carts (id) where featured;
create index golf_carts_alternative_slug_idx on golf_carts (alternative_slug);

create table contact_inquiries (
  id integer generated always as identity primary key,
  first_name text not null check (length(btrim(first_name)) > 0),
  last_name text not null check (length(btrim(last_name)) > 0),
  email text not null check (position('@' in email) > 1),
  phone text,
  interest text check (interest in ('denago', 'evolution', 'swift-ev', 'rentals', 'service')),
  message text,
  -- Where the lead came from: the page, and the embed's `source` label (docs/PRODUCT.md, "Fields and rules").
  source_url text,
  source_label text,
  created_at timestamptz not null default now()
);

create index contact_inquiries_created_at_idx on contact_inquiries (created_at);

-- No screen uses accounts yet. Passwords are only ever kept as salted scrypt hashes.
create table users (
  id integer generated always as identity primary key,
  username text not null unique,
  password_hash text not null check (password_hash like 'scrypt$%')
);
