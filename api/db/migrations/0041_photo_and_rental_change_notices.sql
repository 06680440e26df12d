-- Cart photos and rental requests are on visitors' pages too (a vehicle page's gallery, a rental
-- calendar's free days): their changes reach every process by the same database signal as a
-- cart's (migration 0006), whoever made them, instead of each writer announcing its own
-- (issue #46: one way to say "visitors' answers changed").
create trigger cart_photos_visible_change
after insert or update or delete or truncate on cart_photos
for each statement execute function notify_visible_change();

create trigger rental_requests_visible_change
after insert or update or delete or truncate on rental_requests
for each statement execute function notify_visible_change();
