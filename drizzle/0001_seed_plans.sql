-- The plan catalogue from the interface spec, part 8: daily requests, monthly price, max tokens.
INSERT INTO "plans" ("name", "daily_limit", "price_cents", "max_tokens", "rank") VALUES
  ('free', 100, 0, 3, 0),
  ('starter', 1000, 2900, 5, 1),
  ('pro', 10000, 9900, 10, 2),
  ('business', 50000, 29900, 25, 3);
