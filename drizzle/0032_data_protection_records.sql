CREATE TABLE "assurance_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"statement" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "assurance_settings_single_row" CHECK ("assurance_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "certificate_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"subject_user_id" integer NOT NULL,
	"viewer_id" integer,
	"viewer_name" text NOT NULL,
	"via" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facilitator_photos" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"image" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" integer,
	CONSTRAINT "facilitator_photos_size_check" CHECK (octet_length("facilitator_photos"."image") <= 1048576)
);
--> statement-breakpoint
CREATE TABLE "safeguarding_record_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_on" date NOT NULL,
	"dbs_certificate_last4" text,
	"dbs_issue_date" date,
	"dbs_enhanced_with_barred_list" boolean DEFAULT false NOT NULL,
	"dbs_on_update_service" boolean DEFAULT false NOT NULL,
	"dbs_status_checked_on" date,
	"dbs_checked_by" text,
	"other_checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "safeguarding_record_versions_last4_format" CHECK ("safeguarding_record_versions"."dbs_certificate_last4" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
ALTER TABLE "assurance_settings" ADD CONSTRAINT "assurance_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilitator_photos" ADD CONSTRAINT "facilitator_photos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilitator_photos" ADD CONSTRAINT "facilitator_photos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safeguarding_record_versions" ADD CONSTRAINT "safeguarding_record_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_views_subject_idx" ON "certificate_views" USING btree ("subject_user_id","id");--> statement-breakpoint
CREATE INDEX "certificate_views_viewer_idx" ON "certificate_views" USING btree ("viewer_id");--> statement-breakpoint
CREATE INDEX "certificate_views_at_idx" ON "certificate_views" USING btree ("at");--> statement-breakpoint
CREATE INDEX "safeguarding_record_versions_user_idx" ON "safeguarding_record_versions" USING btree ("user_id","recorded_on","id");--> statement-breakpoint
-- Records saved before this migration: each state the change history kept of them (it kept the
-- certificate's last four digits and the other checks as "type until date; ..."), on the day in UTC
-- it was saved, then the current records of anyone the history has none for.
INSERT INTO "safeguarding_record_versions" ("user_id", "recorded_at", "recorded_on", "dbs_certificate_last4",
  "dbs_issue_date", "dbs_enhanced_with_barred_list", "dbs_on_update_service", "dbs_status_checked_on",
  "dbs_checked_by", "other_checks")
SELECT h."subject_user_id", h."at", (h."at" AT TIME ZONE 'UTC')::date,
  CASE WHEN h."after"->>'dbsCertificate' IS NULL THEN NULL ELSE right(h."after"->>'dbsCertificate', 4) END,
  (h."after"->>'dbsIssueDate')::date,
  coalesce((h."after"->>'enhancedWithBarredList')::boolean, false),
  coalesce((h."after"->>'onUpdateService')::boolean, false),
  (h."after"->>'statusCheckedOn')::date,
  h."after"->>'checkedBy',
  coalesce((
    SELECT jsonb_agg(jsonb_build_object(
      'type', substring(part FROM '^(.*) until [0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      'validUntil', substring(part FROM '([0-9]{4}-[0-9]{2}-[0-9]{2})$')) ORDER BY n)
    FROM regexp_split_to_table(h."after"->>'otherChecks', '; ') WITH ORDINALITY AS p(part, n)
    WHERE part ~ ' until [0-9]{4}-[0-9]{2}-[0-9]{2}$'
  ), '[]'::jsonb)
FROM "change_history" h
JOIN "users" u ON u."id" = h."subject_user_id"
WHERE h."entity" = 'account' AND h."after"->>'section' = 'safeguarding'
ORDER BY h."id";
--> statement-breakpoint
INSERT INTO "safeguarding_record_versions" ("user_id", "recorded_at", "recorded_on", "dbs_certificate_last4",
  "dbs_issue_date", "dbs_enhanced_with_barred_list", "dbs_on_update_service", "dbs_status_checked_on",
  "dbs_checked_by", "other_checks")
SELECT r."user_id", r."updated_at", (r."updated_at" AT TIME ZONE 'UTC')::date, right(r."dbs_certificate_number", 4),
  r."dbs_issue_date", r."dbs_enhanced_with_barred_list", r."dbs_on_update_service", r."dbs_status_checked_on",
  r."dbs_checked_by", r."other_checks"
FROM "safeguarding_records" r
WHERE NOT EXISTS (SELECT 1 FROM "safeguarding_record_versions" v WHERE v."user_id" = r."user_id");
