-- The words a search looks in as plain text, and no index on them (issue #17: PRODUCT.md's
-- "holds the database at most 2 seconds for 10,000 rows" on the embedded database).
--
-- Migration 0010 kept them as a tsvector made by PostgreSQL's text-search parser, with a GIN
-- index. Measured on the embedded database (docs/decisions/0021-cheaper-cart-writes.md): the
-- parser and the index were a fifth of what writing a cart costs. What searching pays for it:
-- nothing measurable up to 1,000 carts, and at 10,000 carts a word search that reaches the
-- database (answers are kept until a change) takes about a third longer.
--
-- Now: the lower-case title, description and stock number with every run of characters that are
-- not letters or digits turned into one space, between two spaces, so that a word starting with
-- `rover` is `like '% rover%'` (api/carts/cart-store.ts). The same words as before, found the
-- same way (a prefix of a word, every word of `q`).
alter table golf_carts drop column search_words;
alter table golf_carts
  add column search_text text generated always as (
    ' ' || regexp_replace(lower(title || ' ' || description || ' ' || coalesce(stock_number, '')), '[^[:alnum:]]+', ' ', 'g') || ' '
  ) stored;
