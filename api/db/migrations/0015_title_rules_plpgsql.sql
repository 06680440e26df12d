-- The title's reading of seats and battery (migration 0010) as PL/pgSQL instead of SQL: the same
-- rules, word for word. PostgreSQL could not inline the SQL versions into the generated columns
-- that call them (their one argument, itself a function of the title, is used many times), so
-- each row ran them through the SQL-function executor; PL/pgSQL evaluates the same expressions
-- for about half the cost. Measured with the import's own code on the embedded database, 10,000
-- new carts: the write held it 1,564 ms with the SQL versions and 1,412 ms with these (median of
-- three, alternating; docs/decisions/0021-cheaper-cart-writes.md). Stored values do not change:
-- api/db/cart-search-migration.test.ts holds these to domain/specifications.ts for every seeded
-- title and a table of awkward ones.
create or replace function golf_cart_title_seats(t text) returns integer
language plpgsql immutable parallel safe as $$
begin
  return case
    when t like '%evolution%' then case
      when t ~ '\yd6\y' then case when t ~ 'gt6|xt6' then 6 else 4 end
      when t ~ '\yd5\y' then case when t ~ '(?<!\d)6(?!\d)' or t like '%4+2%' then 6 else 4 end
      when t ~ '\yclassic\y' then case when t ~ '(?<!\d)4(?!\d)' then 4 else 2 end
      when t ~ 'carrier\s*6|forester\s*6' then 6
      when t ~ 'carrier\s*8' then 8
      when t ~ 'forester\s*4' then 4
      when t like '%turfman%' then 2
      else 4
    end
    when t like '%denago%' then case
      when t like '%xxl%' then 8
      when t ~ '(?<!\d)6(?!\d)' then 6
      when t ~ '(?<!\d)4(?!\d)' then 4
      when t like '%city%' or t like '%nomad%' then 6
      else 4
    end
    else 4
  end;
end;
$$;
create or replace function golf_cart_title_battery(t text) returns text
language plpgsql immutable parallel safe as $$
begin
  return case
    when t like '%evolution%' then case when t ~ '\yd6\y' then 'lithium' else 'lead-acid' end
    when t like '%denago%' then 'lithium'
    else 'lead-acid'
  end;
end;
$$;
