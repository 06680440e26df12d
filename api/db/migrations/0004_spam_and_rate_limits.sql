-- Floods and spam (issue #7).

-- An inquiry caught by the honeypot or the minimum fill time is kept, marked, and never sent.
alter table contact_inquiries add column spam_reason text
  check (spam_reason in ('honeypot', 'too-fast'));

-- Submissions per client address per time window, shared by every server process.
create table rate_limits (
  key text not null,
  window_start timestamptz not null,
  hits integer not null,
  primary key (key, window_start)
);
