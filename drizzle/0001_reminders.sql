-- email (SMTP) settings, the automatic reminder, and the record of reminders sent
CREATE TABLE "reminder_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"smtp_host" text DEFAULT '' NOT NULL,
	"smtp_port" integer DEFAULT 587 NOT NULL,
	"smtp_security" text DEFAULT 'starttls' NOT NULL,
	"smtp_username" text DEFAULT '' NOT NULL,
	"smtp_password_encrypted" text,
	"from_address" text DEFAULT '' NOT NULL,
	"portal_url" text DEFAULT '' NOT NULL,
	"auto_enabled" boolean DEFAULT false NOT NULL,
	"auto_day" integer DEFAULT 1 NOT NULL,
	"auto_month" text DEFAULT 'next' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_settings_single_row" CHECK ("reminder_settings"."id" = 1),
	CONSTRAINT "reminder_settings_port_check" CHECK ("reminder_settings"."smtp_port" between 1 and 65535),
	CONSTRAINT "reminder_settings_security_check" CHECK ("reminder_settings"."smtp_security" in ('none', 'starttls', 'tls')),
	CONSTRAINT "reminder_settings_auto_day_check" CHECK ("reminder_settings"."auto_day" between 1 and 28),
	CONSTRAINT "reminder_settings_auto_month_check" CHECK ("reminder_settings"."auto_month" in ('next', 'current'))
);
--> statement-breakpoint
CREATE TABLE "reminder_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"month" text NOT NULL,
	"sent_on" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	"trigger" text NOT NULL,
	"sent_by" integer,
	CONSTRAINT "reminder_sends_month_format" CHECK ("reminder_sends"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "reminder_sends_trigger_check" CHECK ("reminder_sends"."trigger" in ('staff', 'automatic'))
);
--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD CONSTRAINT "reminder_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD CONSTRAINT "reminder_sends_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_sends_user_month_day_key" ON "reminder_sends" USING btree ("user_id","month","sent_on");
--> statement-breakpoint
CREATE INDEX "reminder_sends_month_idx" ON "reminder_sends" USING btree ("month");
