CREATE TABLE "safeguarding_policy_versions" (
	"effective_from" date PRIMARY KEY NOT NULL,
	"dbs_months" integer NOT NULL,
	"update_service_months" integer NOT NULL,
	"warning_days" integer NOT NULL,
	"check_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safeguarding_policy_versions_dbs_months_check" CHECK ("safeguarding_policy_versions"."dbs_months" between 1 and 120),
	CONSTRAINT "safeguarding_policy_versions_update_months_check" CHECK ("safeguarding_policy_versions"."update_service_months" between 1 and 120),
	CONSTRAINT "safeguarding_policy_versions_warning_days_check" CHECK ("safeguarding_policy_versions"."warning_days" between 0 and 365)
);
--> statement-breakpoint
-- A policy saved before versions were kept applies from the day it was last saved (in UTC: the
-- organisation's time zone is not known here); the days before it are judged by the defaults, as
-- they were when no policy was saved.
INSERT INTO "safeguarding_policy_versions" ("effective_from", "dbs_months", "update_service_months", "warning_days", "check_types", "saved_at")
	SELECT ("updated_at" AT TIME ZONE 'UTC')::date, "dbs_months", "update_service_months", "warning_days", "check_types", "updated_at"
	FROM "safeguarding_policy";
