-- Escalation counts from a lead's arrival in the inbox (issue #28, point 4): for spam that
-- "Not spam" let in, that is that moment, not when it was sent (else a lead let in after a day in
-- the Spam view would escalate within seconds of its arrival alert). Null: it arrived in the
-- inbox as it was sent (created_at).
alter table contact_inquiries add column entered_inbox_at timestamptz;
