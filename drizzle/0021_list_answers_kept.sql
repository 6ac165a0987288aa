-- Big list answers kept compressed, as they were last sent (ADR 56): everyone's availability and
-- bookings over a month view, and the accounts list, once they pass 256 KiB. A row is used only
-- while its version is the list's counter (drizzle/0004_list_versions.sql,
-- drizzle/0018_users_list_version.sql) and its format the running code's; the reads write it again
-- after any change. Brotli text gains nothing from the database's own compression, so it is stored
-- as it is (EXTERNAL: out of line, never compressed).
CREATE TABLE "list_answers_kept" (
	"key" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"format" text NOT NULL,
	"brotli" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "list_answers_kept" ALTER COLUMN "brotli" SET STORAGE EXTERNAL;
--> statement-breakpoint
-- A deleted account's name, address and days leave the kept answers with it, at once: those
-- answers could no longer be sent (the deletion moved their lists' versions), but they would stay
-- stored until the next answer of the same list replaced them.
CREATE FUNCTION "forget_kept_list_answers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM list_answers_kept;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_delete_forget_kept_list_answers" AFTER DELETE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION "forget_kept_list_answers"();
--> statement-breakpoint
CREATE TRIGGER "users_truncate_forget_kept_list_answers" AFTER TRUNCATE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION "forget_kept_list_answers"();
