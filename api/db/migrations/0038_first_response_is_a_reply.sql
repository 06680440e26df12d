-- The true first response (issue #50; PRODUCT.md "first response"): the first human reply, an
-- email or text sent from the console or a logged call. A status change or a note is not one.
--
-- Before this, the first status change or note set it. Replies happened outside the product, so
-- for leads stored before now the best evidence of one is the salesperson's own record of having
-- answered: the first status change (New to Contacted, Quoted, Won or Lost). A note alone was
-- never an answer, so a lead answered only by a note counts as unanswered from now on.
update contact_inquiries i
set first_response_at = s.at, first_response_by = s.actor_id
from (
  select distinct on (entity_id) entity_id, at, actor_id
  from audit_log
  where entity = 'lead' and field = 'status'
  order by entity_id, id
) s
where s.entity_id = i.id::text and i.first_response_at is not null;

update contact_inquiries i
set first_response_at = null, first_response_by = null
where i.first_response_at is not null
  and not exists (select 1 from audit_log a where a.entity = 'lead' and a.field = 'status' and a.entity_id = i.id::text);

-- Escalation now waits for the first response, whatever the status (a lead marked Contacted
-- without a reply still escalates), but for leads already closed (Won, Lost). A lead left without
-- one for over a day is not escalated now: as in migration 0025, a dealership upgrading must not
-- wake every manager with old leads.
update contact_inquiries set escalated_at = now()
where first_response_at is null and escalated_at is null and spam_reason is null
  and created_at < now() - interval '1 day';

drop index contact_inquiries_escalation_idx;
create index contact_inquiries_escalation_idx on contact_inquiries (created_at)
  where first_response_at is null and escalated_at is null and spam_reason is null and status not in ('won', 'lost');
