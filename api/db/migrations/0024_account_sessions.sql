-- Each person's own sessions (issue #29, PRODUCT.md "Running the dealership"): /staff/account
-- lists the browsers an account is signed in on and ends any of them. A session needs a name the
-- page can post that is not its token's hash (which must never leave the server): a number.
alter table staff_sessions add column id bigint generated always as identity;
create unique index staff_sessions_id_idx on staff_sessions (id);
