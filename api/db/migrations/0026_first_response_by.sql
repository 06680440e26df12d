-- Speed to lead per account (issue #28, point 4; PRODUCT.md "escalation" and docs/PRODUCT.md
-- "First response"): who gave a lead its first response (its first status change or note), set
-- in the same transaction as first_response_at. A removed account leaves it null.
alter table contact_inquiries add column first_response_by integer references users (id) on delete set null;

-- Leads answered before this: the account of the first status change or note the audit log
-- recorded for them (what set first_response_at).
update contact_inquiries i set first_response_by = first.actor_id
from (
  select distinct on (entity_id) entity_id, actor_id
  from audit_log
  where entity = 'lead' and field in ('status', 'note')
  order by entity_id, id
) first
where first.entity_id = i.id::text and i.first_response_at is not null;
