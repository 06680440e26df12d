-- Pinned widget versions (PRODUCT.md, "pinned widget versions"): every widget build a server has
-- run stays served at /widgets/v/<version>/, byte for byte, after later upgrades, by every process
-- that shares this database. A server stores its own build when it starts.

create table widget_releases (
  version text primary key check (version ~ '^\d+\.\d+\.\d+-[0-9a-f]{10}$'),
  -- The loader's Subresource Integrity hash, as partners pin it.
  integrity text not null check (integrity ~ '^sha384-[A-Za-z0-9+/]{64}$'),
  released_at timestamptz not null default now()
);

-- The loader and every chunk of a release, with the compressed forms the build made.
create table widget_release_files (
  version text not null references widget_releases (version) on delete cascade,
  path text not null check (path ~ '^[\w./-]+$' and path !~ '\.\.'),
  body bytea not null,
  body_br bytea,
  body_gzip bytea,
  primary key (version, path)
);
