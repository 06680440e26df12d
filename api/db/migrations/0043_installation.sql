-- This installation's random mark, part of every Message-ID the site sends (issue #48): two
-- installations, or a database made anew, number their leads from 1 again, and a mailbox must not
-- take their messages for one another's. A restore brings the mark back with the leads it names.
create table installation (
  id boolean primary key default true check (id),
  mark text not null check (mark ~ '^[0-9a-f]{16}$') default substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)
);
insert into installation default values;
