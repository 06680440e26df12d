-- Where each cart stands (issue #32, PRODUCT.md "cart location"): the key of one of the showrooms
-- in the business facts (domain/business.ts: ocean-view, bayville, waretown, pleasantville). The
-- application checks the key against those facts; here only its shape is checked, so a dealer
-- who renames showrooms in that one file does not need a migration to add one.
--
-- Existing carts are placed at Ocean View, the first showroom. Until now nothing recorded where
-- a cart stood, and every listing feed (store code, dealership address) and every vehicle page's
-- offer has named Ocean View for every cart: placing them there changes nothing that Google,
-- Meta or a visitor has been told. Any other rule (spreading them over the four showrooms) would
-- be a guess published as fact, sending a buyer to the wrong showroom. Staff move carts with the
-- console's Location field, or by exporting the inventory, filling in its `location` column and
-- importing it again. The default stays for writers that name no location (SQL by hand); the
-- console, the import and the seed always name one.
--
-- For a few minutes on 2026-11-26 this file was numbered 0017, beside 0017_staff_roles landed at
-- the same time: a database made then has applied it under that name, so it holds when it has
-- run before.
alter table golf_carts
  add column if not exists location text not null default 'ocean-view'
    check (location ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(location) <= 60);
