-- No lead silently lost (issue #28, PRODUCT.md "Running the dealership").

-- Speed alone never makes spam: a browser's autofill sends a form a second after the page opened.
-- Leads the old minimum-fill-time rule caught were told "Message sent" and reached nobody; they
-- go to the inbox now, and those of the last 30 days get the dealer's email they never had.
with rescued as (
  update contact_inquiries set spam_reason = null where spam_reason = 'too-fast'
  returning id, created_at
)
insert into outbox_messages (inquiry_id, kind)
select id, 'dealer-email' from rescued where created_at > now() - interval '30 days'
on conflict (inquiry_id, kind) do nothing;

alter table contact_inquiries drop constraint contact_inquiries_spam_reason_check;
alter table contact_inquiries add constraint contact_inquiries_spam_reason_check check (spam_reason in ('honeypot'));

-- The Spam view lists caught leads newest first, and the daily clean-up deletes those older
-- than 30 days, both read off this index.
create index contact_inquiries_spam_idx on contact_inquiries (created_at desc, id desc)
  where spam_reason is not null;

-- A repeat: the same email or phone as an earlier lead of the last 30 days, linked to the most
-- recent of them. Phones compare by their last ten digits, so "+1 (609) 555-0123" and
-- "609.555.0123" are the same number.
alter table contact_inquiries
  add column repeat_of integer references contact_inquiries (id) on delete set null;

create index contact_inquiries_email_idx on contact_inquiries (lower(email), created_at desc)
  where spam_reason is null;
create index contact_inquiries_phone_idx on contact_inquiries (right(regexp_replace(phone, '[^0-9]', '', 'g'), 10), created_at desc)
  where spam_reason is null and phone is not null;
create index contact_inquiries_repeat_of_idx on contact_inquiries (repeat_of) where repeat_of is not null;
