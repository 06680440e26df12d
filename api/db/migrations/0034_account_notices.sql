-- Account notices (issue #47; PRODUCT.md "changes that need the password"): when an account's
-- email address changes, its old address is told, so someone who took over a signed-in browser
-- cannot move the account to an address of theirs unnoticed. The notice goes through the outbox,
-- so a mail server that is down delays it and never loses it. It belongs to no lead: its email,
-- composed when the change is made (the account's address has changed by the time it is sent),
-- is kept in `notice` as { to, subject, text }.
alter table outbox_messages alter column inquiry_id drop not null;
alter table outbox_messages add column notice jsonb;

alter table outbox_messages drop constraint outbox_messages_kind_check;
alter table outbox_messages add constraint outbox_messages_kind_check
  check (kind in ('dealer-email', 'crm-adf', 'visitor-confirmation', 'staff-alert', 'staff-push', 'escalation-alert', 'escalation-push', 'account-notice'));
alter table outbox_messages add constraint outbox_messages_notice_check
  check ((kind = 'account-notice') = (inquiry_id is null) and (kind = 'account-notice') = (notice is not null));

-- A lead's message is still queued once; account notices, one per change, are not counted in it.
alter table outbox_messages drop constraint outbox_messages_once;
create unique index outbox_messages_once on outbox_messages (inquiry_id, kind, user_id, push_subscription_id) nulls not distinct
  where inquiry_id is not null;

