CREATE TABLE "availability_removals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"item_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erasures" (
	"id" serial PRIMARY KEY NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	"erased_by" integer,
	"erased_by_name" text NOT NULL,
	"reason" text NOT NULL,
	"removed" jsonb NOT NULL,
	"kept" jsonb NOT NULL,
	CONSTRAINT "erasures_reason_not_blank" CHECK (length(trim("erasures"."reason")) > 0)
);
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"counts" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"certificate_months" integer NOT NULL,
	"anonymise_months" integer NOT NULL,
	"records_years" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_settings_single_row" CHECK ("retention_settings"."id" = 1),
	CONSTRAINT "retention_settings_certificate_months_check" CHECK ("retention_settings"."certificate_months" between 0 and 120),
	CONSTRAINT "retention_settings_anonymise_months_check" CHECK ("retention_settings"."anonymise_months" between 1 and 240),
	CONSTRAINT "retention_settings_records_years_check" CHECK ("retention_settings"."records_years" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "safeguarding_records" DROP CONSTRAINT "safeguarding_records_dbs_complete";--> statement-breakpoint
ALTER TABLE "safeguarding_records" ADD COLUMN "dbs_certificate_last_four" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "erasures" ADD CONSTRAINT "erasures_erased_by_users_id_fk" FOREIGN KEY ("erased_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_removals_next_attempt_idx" ON "availability_removals" USING btree ("next_attempt_at");--> statement-breakpoint
ALTER TABLE "safeguarding_records" ADD CONSTRAINT "safeguarding_records_last_four_format" CHECK ("safeguarding_records"."dbs_certificate_last_four" ~ '^[0-9]{4}$');--> statement-breakpoint
ALTER TABLE "safeguarding_records" ADD CONSTRAINT "safeguarding_records_number_or_last_four" CHECK ("safeguarding_records"."dbs_certificate_number" is null or "safeguarding_records"."dbs_certificate_last_four" is null);--> statement-breakpoint
ALTER TABLE "safeguarding_records" ADD CONSTRAINT "safeguarding_records_dbs_complete" CHECK ((coalesce("safeguarding_records"."dbs_certificate_number", "safeguarding_records"."dbs_certificate_last_four") is null) = ("safeguarding_records"."dbs_issue_date" is null));--> statement-breakpoint
-- History stays append-only. Two deliberate exceptions, each switched on inside its own transaction:
-- `change_history.purge` removes rows (the retention schedule, an erasure, the test suites' restore),
-- and `change_history.anonymise` lets an update blank who made a change (actor_id, actor_name) and the
-- subject's name, nothing else, when the person they name is anonymised or erased.
CREATE OR REPLACE FUNCTION "change_history_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF current_setting('change_history.anonymise', true) IS NOT DISTINCT FROM 'on'
			AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.entity = OLD.entity AND NEW.action = OLD.action
			AND NEW.subject_user_id IS NOT DISTINCT FROM OLD.subject_user_id
			AND NEW.date IS NOT DISTINCT FROM OLD.date AND NEW.via = OLD.via
			AND NEW.before IS NOT DISTINCT FROM OLD.before AND NEW.after IS NOT DISTINCT FROM OLD.after
			AND (NEW.actor_id IS NULL OR NEW.actor_id = OLD.actor_id) THEN
			RETURN NEW;
		END IF;
		RAISE EXCEPTION 'change_history is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF current_setting('change_history.purge', true) IS DISTINCT FROM 'on' THEN
		RAISE EXCEPTION 'change_history is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF TG_OP = 'TRUNCATE' THEN
		RETURN NULL;
	END IF;
	RETURN OLD;
END
$$;
