-- The staff's lead inbox (issue #18, PRODUCT.md "leads"): every inquiry gets a status, an owner,
-- notes and the time of its first response, and the inbox's filters and search stay fast with
-- 100,000 leads on PostgreSQL and on the embedded database alike.

-- Substring search of names, emails and phone digits (PGlite loads the extension itself,
-- api/db/database.ts; PostgreSQL ships it in contrib, and it is a trusted extension since 13).
create extension if not exists pg_trgm;

alter table contact_inquiries
  add column status text not null default 'new'
    check (status in ('new', 'contacted', 'quoted', 'won', 'lost')),
  -- A removed account leaves its leads unassigned; the audit log keeps who had them.
  add column owner_id integer references users (id) on delete set null,
  -- The first status change or note: "answered within an hour" is measured from here.
  add column first_response_at timestamptz,
  -- Where the lead came from, for the filter and the dashboard: the embed's label, else the
  -- page's host, else nothing (the REST API without a page).
  add column source text generated always as (
    coalesce(nullif(btrim(source_label), ''), lower(substring(source_url from '^https?://([^/?#]+)')))
  ) stored,
  -- What the inbox's search reads: names and email in lower case, and the phone's digits alone,
  -- so "(609) 555-0123", "609.555.0123" and "5550123" all find the same lead.
  add column search_text text generated always as (
    lower(first_name || ' ' || last_name || ' ' || email) || ' ' ||
    coalesce(regexp_replace(phone, '[^0-9]', '', 'g'), '')
  ) stored;

-- Notes staff write while working a lead; the author's name is kept as it was, like the audit log.
create table lead_notes (
  id bigint generated always as identity primary key,
  inquiry_id integer not null references contact_inquiries (id) on delete cascade,
  author_id integer references users (id) on delete set null,
  author text not null,
  at timestamptz not null default now(),
  body text not null check (length(btrim(body)) between 1 and 5000)
);

create index lead_notes_inquiry_idx on lead_notes (inquiry_id, id);

-- The inbox lists leads newest first, spam left out; each filter has an index in that order, so
-- a page is read off an index whatever the table's size. Combined filters use the most selective.
create index contact_inquiries_inbox_idx on contact_inquiries (created_at desc, id desc)
  where spam_reason is null;
create index contact_inquiries_inbox_status_idx on contact_inquiries (status, created_at desc, id desc)
  where spam_reason is null;
create index contact_inquiries_inbox_owner_idx on contact_inquiries (owner_id, created_at desc, id desc)
  where spam_reason is null;
create index contact_inquiries_inbox_interest_idx on contact_inquiries (interest, created_at desc, id desc)
  where spam_reason is null;
create index contact_inquiries_inbox_source_idx on contact_inquiries (source, created_at desc, id desc)
  where spam_reason is null;
create index contact_inquiries_search_idx on contact_inquiries using gin (search_text gin_trgm_ops)
  where spam_reason is null;
