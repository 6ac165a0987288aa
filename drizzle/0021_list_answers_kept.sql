-- Big list answers kept compressed, as they were last sent (ADR 56): the staff month, week and
-- bookings and the accounts list, once they pass 256 KiB. A row is used only while its version is
-- the list's counter (drizzle/0004_list_versions.sql, drizzle/0018_users_list_version.sql) and its
-- format the running code's; the reads write it again after any change. Brotli text gains nothing
-- from the database's own compression, so it is stored as it is (EXTERNAL: out of line, never
-- compressed).
CREATE TABLE "list_answers_kept" (
	"key" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"format" text NOT NULL,
	"brotli" "bytea" NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "list_answers_kept" ALTER COLUMN "brotli" SET STORAGE EXTERNAL;
