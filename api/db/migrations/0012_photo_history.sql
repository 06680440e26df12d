-- A cart's history shows its photos' changes (issue #16): a photo's rows in the audit log are
-- found through its `create` row, which names the cart (`after.cartId`). The photo itself may be
-- gone (removed, or its cart deleted), so the log is the only place that still knows its cart.
create index audit_log_photo_cart_idx on audit_log ((after ->> 'cartId'))
  where entity = 'photo' and action = 'create';
