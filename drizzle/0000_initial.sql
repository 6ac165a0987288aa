CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "availability" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"date" date NOT NULL,
	"status" text NOT NULL,
	"start_time" text DEFAULT '' NOT NULL,
	"end_time" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"synced_to_sharepoint" boolean DEFAULT false NOT NULL,
	"sharepoint_item_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "availability_status_check" CHECK ("availability"."status" in ('available', 'limited', 'unavailable')),
	CONSTRAINT "availability_start_time_format" CHECK ("availability"."start_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$|^$'),
	CONSTRAINT "availability_end_time_format" CHECK ("availability"."end_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$|^$')
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"freelancer_id" text,
	"title" text DEFAULT '' NOT NULL,
	"date" date NOT NULL,
	"start_time" text,
	"end_time" text,
	"location" text,
	"sharepoint_id" text NOT NULL,
	"school_id" text,
	"school_name" text,
	"school_address" text,
	"school_postcode" text,
	"program" text,
	"time_slot" text,
	"delivery_type" text,
	"year" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scheduler_state" (
	"name" text PRIMARY KEY NOT NULL,
	"is_updating" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"last_result" jsonb,
	"last_error" text,
	"heartbeat_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sharepoint_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"site_url" text NOT NULL,
	"availability_list_name" text NOT NULL,
	"bookings_list_name" text NOT NULL,
	"facilitator_list_name" text DEFAULT '' NOT NULL,
	"schools_list_name" text DEFAULT '' NOT NULL,
	"tenant_id" text DEFAULT '' NOT NULL,
	"client_id" text DEFAULT '' NOT NULL,
	"client_secret_encrypted" text,
	"username" text DEFAULT '' NOT NULL,
	"password_encrypted" text,
	"delta_links" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sharepoint_settings_single_row" CHECK ("sharepoint_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "staff_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"facilitator_id" integer NOT NULL,
	"date" date NOT NULL,
	"note" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_notes_priority_check" CHECK ("staff_notes"."priority" in ('normal', 'high', 'urgent')),
	CONSTRAINT "staff_notes_note_not_blank" CHECK (length(trim("staff_notes"."note")) > 0)
);
--> statement-breakpoint
CREATE TABLE "sync_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"date" date NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text,
	"display_name" text,
	"email" text,
	"freelancer_id" text,
	"role" text DEFAULT 'facilitator' NOT NULL,
	"area" text,
	"last_availability_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_format" CHECK ("users"."role" ~ '^[a-z][a-z0-9_-]*$')
);
--> statement-breakpoint
ALTER TABLE "availability" ADD CONSTRAINT "availability_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability" ADD CONSTRAINT "availability_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_facilitator_id_users_id_fk" FOREIGN KEY ("facilitator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "availability_user_date_key" ON "availability" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "availability_date_idx" ON "availability" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_sharepoint_id_key" ON "bookings" USING btree ("sharepoint_id");--> statement-breakpoint
CREATE INDEX "bookings_user_date_idx" ON "bookings" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "bookings_date_idx" ON "bookings" USING btree ("date");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "staff_notes_facilitator_date_idx" ON "staff_notes" USING btree ("facilitator_id","date");--> statement-breakpoint
CREATE INDEX "staff_notes_date_idx" ON "staff_notes" USING btree ("date");--> statement-breakpoint
CREATE INDEX "sync_outbox_next_attempt_idx" ON "sync_outbox" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "sync_outbox_user_date_idx" ON "sync_outbox" USING btree ("user_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "users_freelancer_id_idx" ON "users" USING btree ("freelancer_id");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");