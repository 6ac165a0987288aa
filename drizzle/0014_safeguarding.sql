CREATE TABLE "safeguarding_policy" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"dbs_months" integer NOT NULL,
	"update_service_months" integer NOT NULL,
	"warning_days" integer NOT NULL,
	"check_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safeguarding_policy_single_row" CHECK ("safeguarding_policy"."id" = 1),
	CONSTRAINT "safeguarding_policy_dbs_months_check" CHECK ("safeguarding_policy"."dbs_months" between 1 and 120),
	CONSTRAINT "safeguarding_policy_update_months_check" CHECK ("safeguarding_policy"."update_service_months" between 1 and 120),
	CONSTRAINT "safeguarding_policy_warning_days_check" CHECK ("safeguarding_policy"."warning_days" between 0 and 365)
);--> statement-breakpoint
CREATE TABLE "safeguarding_records" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"dbs_certificate_number" text,
	"dbs_issue_date" date,
	"dbs_enhanced_with_barred_list" boolean DEFAULT false NOT NULL,
	"dbs_on_update_service" boolean DEFAULT false NOT NULL,
	"dbs_status_checked_on" date,
	"dbs_checked_by" text,
	"other_checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "safeguarding_records_certificate_format" CHECK ("safeguarding_records"."dbs_certificate_number" ~ '^[0-9]{12}$'),
	CONSTRAINT "safeguarding_records_dbs_complete" CHECK (("safeguarding_records"."dbs_certificate_number" is null) = ("safeguarding_records"."dbs_issue_date" is null))
);--> statement-breakpoint
CREATE TABLE "safeguarding_reminder_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"sent_on" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "safeguarding_reminder_sends_kind_check" CHECK ("safeguarding_reminder_sends"."kind" in ('expiry', 'digest'))
);--> statement-breakpoint
ALTER TABLE "safeguarding_records" ADD CONSTRAINT "safeguarding_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safeguarding_records" ADD CONSTRAINT "safeguarding_records_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safeguarding_reminder_sends" ADD CONSTRAINT "safeguarding_reminder_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "safeguarding_reminder_sends_user_kind_day_key" ON "safeguarding_reminder_sends" USING btree ("user_id","kind","sent_on");
