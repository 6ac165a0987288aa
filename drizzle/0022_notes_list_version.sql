-- The staff notes list (GET /api/staff/notes) is versioned like the bookings (ADR 57): one counter for
-- every note (user 0), bumped by every statement that inserts, changes or deletes notes by any path
-- (the staff screens, a cascade from deleting an account, a script, a truncate). Its answers are then
-- kept per version and revalidated with an ETag instead of being read and serialised on every request.
CREATE FUNCTION "bump_notes_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO list_versions (list, user_id, version) VALUES ('notes', 0, 1)
		ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "staff_notes_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "staff_notes"
	FOR EACH STATEMENT EXECUTE FUNCTION "bump_notes_version"();
