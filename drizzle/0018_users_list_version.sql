-- The accounts list (GET /api/staff/users) is versioned like availability: a counter per account,
-- bumped by every statement that inserts, changes or deletes it, whichever path it came by (the
-- staff screens, a facilitator's save moving their "last updated" time, the SharePoint import, a
-- cascade, a script). One counter per account rather than one for the list, so writers to different
-- accounts never wait for each other. Rows are taken in id order, so concurrent writers cannot
-- deadlock on them.
CREATE FUNCTION "bump_user_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'users', id, 1 FROM (SELECT DISTINCT id FROM new_rows) touched ORDER BY id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'users', id, 1
			FROM (SELECT id FROM new_rows UNION SELECT id FROM old_rows) touched ORDER BY id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSE
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'users', id, 1 FROM (SELECT DISTINCT id FROM old_rows) touched ORDER BY id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_versions_insert" AFTER INSERT ON "users"
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_versions"();
--> statement-breakpoint
CREATE TRIGGER "users_versions_update" AFTER UPDATE ON "users"
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_versions"();
--> statement-breakpoint
CREATE TRIGGER "users_versions_delete" AFTER DELETE ON "users"
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_versions"();
--> statement-breakpoint
CREATE FUNCTION "bump_all_user_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE list_versions SET version = version + 1 WHERE list = 'users';
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_versions_truncate" AFTER TRUNCATE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_user_versions"();
