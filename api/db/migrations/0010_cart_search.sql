-- Search (issue #19, PRODUCT.md "search"): the inventory filters on what a visitor reads on a
-- cart's page, where a stored fact wins over the one read from the title
-- (domain/cart-facts.ts, `cartSpecifications`). Those effective facts are generated columns, so
-- every writer (the console, an import, SQL by hand) keeps them right, and they can be indexed.
--
-- The title's reading below is SPEC section 3's rule as domain/specifications.ts writes it;
-- api/db/cart-search-migration.test.ts holds the two to the same answers for every seeded title
-- and a table of awkward ones. A change to that rule comes with a migration that replaces these
-- functions and rewrites the rows (`update golf_carts set title = title`).

-- The text a cart's platform is read from: the title, or, when it names no brand, the stored
-- make and model before it.
create function golf_cart_platform_text(title text, make text, model text) returns text
language sql immutable parallel safe as $$
  select lower(case
    when lower(title) like '%evolution%' or lower(title) like '%denago%' or make is null then title
    else make || ' ' || coalesce(model || ' ', '') || title
  end)
$$;

-- The most people the platform seats (a Denago the title says little about seats 2 to 4: 4).
-- `(?<!\d)6(?!\d)` is "6 stands alone as a number"; `\y` is PostgreSQL's word boundary.
create function golf_cart_title_seats(t text) returns integer
language sql immutable parallel safe as $$
  select case
    when t like '%evolution%' then case
      when t ~ '\yd6\y' then case when t ~ 'gt6|xt6' then 6 else 4 end
      when t ~ '\yd5\y' then case when t ~ '(?<!\d)6(?!\d)' or t like '%4+2%' then 6 else 4 end
      when t ~ '\yclassic\y' then case when t ~ '(?<!\d)4(?!\d)' then 4 else 2 end
      when t ~ 'carrier\s*6|forester\s*6' then 6
      when t ~ 'carrier\s*8' then 8
      when t ~ 'forester\s*4' then 4
      when t like '%turfman%' then 2
      else 4
    end
    when t like '%denago%' then case
      when t like '%xxl%' then 8
      when t ~ '(?<!\d)6(?!\d)' then 6
      when t ~ '(?<!\d)4(?!\d)' then 4
      when t like '%city%' or t like '%nomad%' then 6
      else 4
    end
    else 4
  end
$$;

-- Lithium for the Evolution D6 and every Denago; lead-acid for the rest.
create function golf_cart_title_battery(t text) returns text
language sql immutable parallel safe as $$
  select case
    when t like '%evolution%' then case when t ~ '\yd6\y' then 'lithium' else 'lead-acid' end
    when t like '%denago%' then 'lithium'
    else 'lead-acid'
  end
$$;

-- A make as a filter value: lower case, every run of other characters one hyphen ("Club Car" is
-- `club-car`), as domain/slug.ts makes slugs.
create function golf_cart_make_key(make text) returns text
language sql immutable parallel safe as $$
  select nullif(trim(both '-' from regexp_replace(lower(make), '[^a-z0-9]+', '-', 'g')), '')
$$;

alter table golf_carts
  add column effective_make text generated always as (
    coalesce(make, case
      when lower(title) like '%evolution%' then 'Evolution'
      when lower(title) like '%denago%' then 'Denago'
    end)
  ) stored,
  add column effective_seats integer generated always as (
    coalesce(seats, golf_cart_title_seats(golf_cart_platform_text(title, make, model)))
  ) stored,
  add column effective_battery text generated always as (
    coalesce(battery, golf_cart_title_battery(golf_cart_platform_text(title, make, model)))
  ) stored,
  -- The words `q` looks in: title, description and stock number, split at every character that
  -- is not a letter or digit, as domain/cart-query.ts splits `q` (the parser would otherwise read
  -- the "-0029" of GC-0029 as a negative number). The `simple` configuration keeps every word as
  -- written: no English stemming of model names such as "Rover".
  add column search_words tsvector generated always as (
    to_tsvector('simple', regexp_replace(title || ' ' || description || ' ' || coalesce(stock_number, ''), '[^[:alnum:]]+', ' ', 'g'))
  ) stored;

alter table golf_carts
  add column make_key text generated always as (
    golf_cart_make_key(coalesce(make, case
      when lower(title) like '%evolution%' then 'Evolution'
      when lower(title) like '%denago%' then 'Denago'
    end))
  ) stored;

create index golf_carts_search_words_idx on golf_carts using gin (search_words);
-- The sorts of the listed carts: holds after available carts whatever the order (PRODUCT.md).
create index golf_carts_listed_price_idx on golf_carts ((status = 'hold'), price, id) where status <> 'sold';
create index golf_carts_listed_newest_idx on golf_carts ((status = 'hold'), listed_at desc, id desc) where status <> 'sold';
