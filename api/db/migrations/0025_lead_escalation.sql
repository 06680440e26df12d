-- Escalation (issue #28, point 4; PRODUCT.md "escalation"): a lead still new after
-- LEAD_ESCALATE_MINUTES of business hours alerts the managers and owners once. escalated_at is
-- set in the transaction that queues those alerts, only where it was null, so of several server
-- processes looking at once exactly one queues them.
alter table contact_inquiries add column escalated_at timestamptz;

-- Leads already waiting when this arrives are not escalated all at once: a dealership upgrading
-- with a year of leads left at New would otherwise wake every manager with hundreds of alerts.
-- Those of the last day still are (they may be waiting now).
update contact_inquiries set escalated_at = now()
where status = 'new' and created_at < now() - interval '1 day';

-- What the escalation check reads every few seconds: new leads not yet escalated, oldest first.
create index contact_inquiries_escalation_idx on contact_inquiries (created_at)
  where status = 'new' and escalated_at is null and spam_reason is null;
