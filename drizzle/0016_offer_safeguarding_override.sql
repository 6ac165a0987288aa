ALTER TABLE "offers" ADD COLUMN "safeguarding_state" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "safeguarding_override_reason" text;
