CREATE TABLE "list_versions" (
	"list" text NOT NULL,
	"user_id" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "list_versions_list_user_id_pk" PRIMARY KEY("list","user_id")
);
--> statement-breakpoint
-- Every statement that changes availability bumps the version of each facilitator it touched; every
-- statement that changes bookings bumps the single bookings version (user 0). Triggers rather than
-- application code, so no write path (a cascade from deleting a user, the outbox worker, a script)
-- can change a list without its cached answers going stale. Rows are taken in user order, the order
-- availability rows are locked in, so concurrent writers cannot deadlock on them.
CREATE FUNCTION "bump_availability_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'availability', user_id, 1 FROM (SELECT DISTINCT user_id FROM new_rows) touched ORDER BY user_id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'availability', user_id, 1
			FROM (SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows) touched ORDER BY user_id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSE
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'availability', user_id, 1 FROM (SELECT DISTINCT user_id FROM old_rows) touched ORDER BY user_id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "availability_versions_insert" AFTER INSERT ON "availability"
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_availability_versions"();
--> statement-breakpoint
CREATE TRIGGER "availability_versions_update" AFTER UPDATE ON "availability"
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_availability_versions"();
--> statement-breakpoint
CREATE TRIGGER "availability_versions_delete" AFTER DELETE ON "availability"
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_availability_versions"();
--> statement-breakpoint
CREATE FUNCTION "bump_bookings_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO list_versions (list, user_id, version) VALUES ('bookings', 0, 1)
		ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "bookings_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "bookings"
	FOR EACH STATEMENT EXECUTE FUNCTION "bump_bookings_version"();
--> statement-breakpoint
CREATE FUNCTION "bump_all_availability_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE list_versions SET version = version + 1 WHERE list = 'availability';
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "availability_versions_truncate" AFTER TRUNCATE ON "availability"
	FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_availability_versions"();
