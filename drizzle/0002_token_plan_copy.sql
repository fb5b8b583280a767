-- Each token's row holds a copy of its account's plan, pending plan and their daily limits, so
-- that the statements every request runs (the token look-up, the token check and count) read the
-- token's row alone instead of joining the account and the plan catalogue. The copy is written
-- only by the triggers below, in the same transaction as whatever changes it (a token's insert,
-- a plan change, a new limit in the catalogue): a statement sees the copy exactly when it would
-- have seen the account's row. The effective plan at a given instant is still chosen at read
-- time (a scheduled downgrade wins once its date has come), from the copied columns.
ALTER TABLE "api_tokens" ADD COLUMN "plan" text DEFAULT null;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "daily_limit" integer DEFAULT null;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "pending_daily_limit" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "pending_plan_at" timestamp with time zone;--> statement-breakpoint
-- A new token (or one moved to another account) takes its account's plan. The account's row is
-- share-locked, so a plan change cannot commit between this read and the insert's commit.
CREATE FUNCTION "api_tokens_copy_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.plan, p.daily_limit, a.pending_plan, q.daily_limit, a.pending_plan_at
    INTO NEW.plan, NEW.daily_limit, NEW.pending_plan, NEW.pending_daily_limit, NEW.pending_plan_at
    FROM accounts a
    JOIN plans p ON p.name = a.plan
    LEFT JOIN plans q ON q.name = a.pending_plan
    WHERE a.id = NEW.account_id
    FOR SHARE OF a;
  IF NOT FOUND THEN
    RAISE foreign_key_violation USING MESSAGE = 'api_tokens.account_id: no such account';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "api_tokens_copy_plan" BEFORE INSERT OR UPDATE OF "account_id" ON "api_tokens"
  FOR EACH ROW EXECUTE FUNCTION "api_tokens_copy_plan"();--> statement-breakpoint
-- A plan change (an upgrade, a scheduled or cancelled downgrade) reaches every token of the account.
CREATE FUNCTION "accounts_copy_plan_to_tokens"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_tokens SET
    plan = NEW.plan,
    daily_limit = (SELECT daily_limit FROM plans WHERE name = NEW.plan),
    pending_plan = NEW.pending_plan,
    pending_daily_limit = (SELECT daily_limit FROM plans WHERE name = NEW.pending_plan),
    pending_plan_at = NEW.pending_plan_at
  WHERE account_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "accounts_copy_plan_to_tokens" AFTER UPDATE OF "plan", "pending_plan", "pending_plan_at" ON "accounts"
  FOR EACH ROW
  WHEN (OLD.plan IS DISTINCT FROM NEW.plan OR OLD.pending_plan IS DISTINCT FROM NEW.pending_plan OR OLD.pending_plan_at IS DISTINCT FROM NEW.pending_plan_at)
  EXECUTE FUNCTION "accounts_copy_plan_to_tokens"();--> statement-breakpoint
-- A new daily limit in the catalogue reaches every token whose plan or pending plan it is.
CREATE FUNCTION "plans_copy_limit_to_tokens"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_tokens SET daily_limit = NEW.daily_limit WHERE plan = NEW.name;
  UPDATE api_tokens SET pending_daily_limit = NEW.daily_limit WHERE pending_plan = NEW.name;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "plans_copy_limit_to_tokens" AFTER UPDATE OF "daily_limit" ON "plans"
  FOR EACH ROW
  WHEN (OLD.daily_limit IS DISTINCT FROM NEW.daily_limit)
  EXECUTE FUNCTION "plans_copy_limit_to_tokens"();--> statement-breakpoint
-- The tokens that exist already.
UPDATE "api_tokens" t SET
  plan = a.plan,
  daily_limit = p.daily_limit,
  pending_plan = a.pending_plan,
  pending_daily_limit = q.daily_limit,
  pending_plan_at = a.pending_plan_at
FROM accounts a
JOIN plans p ON p.name = a.plan
LEFT JOIN plans q ON q.name = a.pending_plan
WHERE a.id = t.account_id;--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "plan" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "daily_limit" SET NOT NULL;
