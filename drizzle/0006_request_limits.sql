CREATE TABLE "request_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "request_limits_resets_at_idx" ON "request_limits" USING btree ("resets_at");
--> statement-breakpoint
-- Failed sign-ins are now counted per account and address pair as well; the account column lets staff
-- clear every row of one account at once.
ALTER TABLE "login_throttle" ADD COLUMN "account" text;
--> statement-breakpoint
CREATE INDEX "login_throttle_account_idx" ON "login_throttle" USING btree ("account");
--> statement-breakpoint
CREATE INDEX "login_throttle_window_started_at_idx" ON "login_throttle" USING btree ("window_started_at");
