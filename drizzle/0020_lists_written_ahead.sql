-- The two biggest lists' JSON text, written ahead and kept in the database (ADR 44, ADR 45): each
-- facilitator's availability in a month-sized range, and each account's row of the accounts list.
-- Nothing keeps them up to date: a text is used only while its version equals the counter the
-- list_versions triggers move on every change (drizzle/0004_list_versions.sql,
-- drizzle/0018_users_list_version.sql) and its shape the reading code's row format, and the reads
-- write again whatever is missing or older. So they survive restarts, serve every instance, and a
-- restore brings back texts and counters from the same moment.
CREATE TABLE "availability_range_json" (
	"user_id" integer NOT NULL,
	"range_from" date NOT NULL,
	"range_to" date NOT NULL,
	"version" bigint NOT NULL,
	"shape" text NOT NULL,
	"json" text NOT NULL,
	CONSTRAINT "availability_range_json_range_from_range_to_user_id_pk" PRIMARY KEY("range_from","range_to","user_id")
);
--> statement-breakpoint
CREATE TABLE "users_list_json" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"shape" text NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "availability_range_json" ADD CONSTRAINT "availability_range_json_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_list_json" ADD CONSTRAINT "users_list_json_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;