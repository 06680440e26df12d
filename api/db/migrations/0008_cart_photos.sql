-- Cart photos (issue #16, PRODUCT.md "photos"): up to 24 per cart, ordered (position 0 is the
-- cover), each with alt text, stored in the database every server process shares, so any process
-- serves any photo and the embedded database needs nothing else installed.

create table cart_photos (
  id bigint generated always as identity primary key,
  -- A deleted cart takes its photos, and their files, with it.
  cart_id integer not null references golf_carts (id) on delete cascade,
  -- The content hash naming the photo's files: /photos/<key>-<width>.<avif|webp|jpg>.
  key text not null check (key ~ '^[0-9a-f]{32}$'),
  position integer not null check (position >= 0),
  alt text not null check (length(alt) between 1 and 250),
  -- The largest stored file's size, and every stored width.
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  widths integer[] not null,
  bytes bigint not null check (bytes >= 0),
  created_at timestamptz not null default now(),
  -- The same photo twice on one cart is a mistake; on two carts it is two photos.
  unique (cart_id, key)
);

create index cart_photos_cart_idx on cart_photos (cart_id, position, id);
create index cart_photos_key_idx on cart_photos (key);

-- One row per stored file. Deleting a photo (or its cart) deletes these rows and so frees the bytes.
create table cart_photo_files (
  photo_id bigint not null references cart_photos (id) on delete cascade,
  format text not null check (format in ('avif', 'webp', 'jpeg')),
  width integer not null check (width > 0),
  bytes bytea not null,
  primary key (photo_id, width, format)
);

-- The files are already compressed: stored out of line as they are, not compressed again.
alter table cart_photo_files alter column bytes set storage external;
