-- Wrong current passwords on Your account (issue #29): changing the password, removing a second
-- step or making new recovery codes asks for the current one, so a borrowed session (a browser
-- left signed in) could guess it there. Each wrong one is a row; 5 in 15 minutes and the account
-- is refused for the rest of the window.
create table staff_password_checks (
  id integer generated always as identity primary key,
  user_id integer not null references users (id) on delete cascade,
  at timestamptz not null default now()
);
create index staff_password_checks_user_idx on staff_password_checks (user_id, at);
