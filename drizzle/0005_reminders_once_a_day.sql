-- Reminders: at most one per person per day whatever month it is about (it was one per month per
-- day). Earlier rows that break the new rule stay as the record of what was sent, outside the key.
DROP INDEX "reminder_sends_user_month_day_key";
--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD COLUMN "extra_same_day" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "reminder_sends" AS "later" SET "extra_same_day" = true
WHERE EXISTS (
	SELECT 1 FROM "reminder_sends" AS "earlier"
	WHERE "earlier"."user_id" = "later"."user_id" AND "earlier"."sent_on" = "later"."sent_on" AND "earlier"."id" < "later"."id"
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_sends_user_day_key" ON "reminder_sends" USING btree ("user_id","sent_on") WHERE not "reminder_sends"."extra_same_day";
--> statement-breakpoint
-- Reminder links come from the operator's PUBLIC_URL, no longer from an address typed in Settings.
ALTER TABLE "reminder_settings" DROP COLUMN "portal_url";
