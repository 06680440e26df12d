-- Outbox claims (issue #11): each claim gets a token, so a worker renews, releases and reports
-- on only the claim it holds, never on one another worker has taken over.
alter table outbox_messages add column claim_token text;
