-- Lead routing (issue #28, PRODUCT.md "lead routing"): the owner's settings say which accounts
-- take leads, per interest (dealer_settings, key leadRouting); each new lead goes to the next of
-- them in turn. The turn is one row per pool, locked by the transaction that stores the lead, so
-- leads arriving at once on several processes each get the next account: none twice, none skipped.
create table lead_routing_turns (
  pool text primary key,
  -- The account the pool's last lead went to; the next goes to the one after it.
  last_user_id integer,
  updated_at timestamptz not null default now()
);
