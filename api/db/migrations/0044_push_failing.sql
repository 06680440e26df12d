-- Alerts never hold up leads (issue #47; PRODUCT.md "alerts never hold up leads"): a browser
-- whose push service fails is tried after every healthy one, and one that has failed every push
-- for a day is removed. The first failure since its last delivered push is kept here; a push
-- that goes through clears it.
alter table push_subscriptions add column failing_since timestamptz;
