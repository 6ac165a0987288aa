CREATE TABLE "facilitator_areas" (
	"area" text PRIMARY KEY NOT NULL,
	"facilitators" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- A whole list's version is one kept row, not a sum. Availability and the accounts keep a counter per
-- facilitator (0004, 0018); their whole list's version was the sum of those counters, read on every
-- staff grid and list request: a pass over as many rows as there are facilitators. Now the same
-- triggers also bump a total for the list, at user 0 (as the bookings' and the notes' single
-- counters are), so a whole list's version is read from one row by its key.
--
-- The total starts at the sum it replaces, so an ETag given before this migration still matches.
-- Only statements that touched rows bump it (user 0 is taken from the transition table, empty when
-- nothing changed). It sorts first in each bump (user 0 before any facilitator), so writers take it
-- before their facilitators' counters, always in the same order.
INSERT INTO list_versions (list, user_id, version)
	SELECT list, 0, sum(version) FROM list_versions WHERE list IN ('availability', 'users') GROUP BY list
	ON CONFLICT (list, user_id) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_availability_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'availability', user_id, 1
			FROM (SELECT user_id FROM new_rows UNION SELECT 0 FROM new_rows) touched ORDER BY user_id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'availability', user_id, 1
			FROM (SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows UNION SELECT 0 FROM new_rows) touched
			ORDER BY user_id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSE
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'availability', user_id, 1
			FROM (SELECT user_id FROM old_rows UNION SELECT 0 FROM old_rows) touched ORDER BY user_id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_all_availability_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO list_versions (list, user_id, version) VALUES ('availability', 0, 1)
		ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	UPDATE list_versions SET version = version + 1 WHERE list = 'availability' AND user_id <> 0;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_user_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'users', id, 1 FROM (SELECT id FROM new_rows UNION SELECT 0 FROM new_rows) touched ORDER BY id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'users', id, 1
			FROM (SELECT id FROM new_rows UNION SELECT id FROM old_rows UNION SELECT 0 FROM new_rows) touched
			ORDER BY id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	ELSE
		INSERT INTO list_versions (list, user_id, version)
			SELECT 'users', id, 1 FROM (SELECT id FROM old_rows UNION SELECT 0 FROM old_rows) touched ORDER BY id
			ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_all_user_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO list_versions (list, user_id, version) VALUES ('users', 0, 1)
		ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	UPDATE list_versions SET version = version + 1 WHERE list = 'users' AND user_id <> 0;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- The safeguarding records and the policy that dates them had no counter: the staff grid named them
-- in its ETag by the records' number and latest change and the policy's latest save, a pass over
-- every record. Now one counter for both (user 0), bumped by every statement that changes either.
INSERT INTO list_versions (list, user_id, version) VALUES ('safeguarding', 0, 1)
	ON CONFLICT (list, user_id) DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "bump_safeguarding_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO list_versions (list, user_id, version) VALUES ('safeguarding', 0, 1)
		ON CONFLICT (list, user_id) DO UPDATE SET version = list_versions.version + 1;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "safeguarding_records_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "safeguarding_records"
	FOR EACH STATEMENT EXECUTE FUNCTION "bump_safeguarding_version"();
--> statement-breakpoint
CREATE TRIGGER "safeguarding_policy_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "safeguarding_policy_versions"
	FOR EACH STATEMENT EXECUTE FUNCTION "bump_safeguarding_version"();
--> statement-breakpoint
-- How many facilitators each area has (the staff grid's area choices and counts), filled from the
-- accounts as they stand, then kept by a statement trigger on users: each statement adds its new
-- rows and takes away its old ones, by area, and touches only the areas whose count moved, in area
-- order. An account saved without a change of area or role (a facilitator's "last updated" time)
-- touches none. The area key is the grid's: the area trimmed, '__no_area__' for none.
INSERT INTO facilitator_areas (area, facilitators)
	SELECT coalesce(nullif(btrim(area), ''), '__no_area__'), count(*) FROM users WHERE role <> 'staff' GROUP BY 1;
--> statement-breakpoint
CREATE FUNCTION "count_facilitator_areas"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO facilitator_areas (area, facilitators)
			SELECT coalesce(nullif(btrim(area), ''), '__no_area__') AS key, count(*) FROM new_rows
			WHERE role <> 'staff' GROUP BY key ORDER BY key
			ON CONFLICT (area) DO UPDATE SET facilitators = facilitator_areas.facilitators + excluded.facilitators;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO facilitator_areas (area, facilitators)
			SELECT key, sum(step) FROM (
				SELECT coalesce(nullif(btrim(area), ''), '__no_area__') AS key, 1 AS step FROM new_rows WHERE role <> 'staff'
				UNION ALL
				SELECT coalesce(nullif(btrim(area), ''), '__no_area__'), -1 FROM old_rows WHERE role <> 'staff'
			) steps GROUP BY key HAVING sum(step) <> 0 ORDER BY key
			ON CONFLICT (area) DO UPDATE SET facilitators = facilitator_areas.facilitators + excluded.facilitators;
	ELSE
		INSERT INTO facilitator_areas (area, facilitators)
			SELECT coalesce(nullif(btrim(area), ''), '__no_area__') AS key, -count(*) FROM old_rows
			WHERE role <> 'staff' GROUP BY key ORDER BY key
			ON CONFLICT (area) DO UPDATE SET facilitators = facilitator_areas.facilitators + excluded.facilitators;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "facilitator_areas_insert" AFTER INSERT ON "users"
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_facilitator_areas"();
--> statement-breakpoint
CREATE TRIGGER "facilitator_areas_update" AFTER UPDATE ON "users"
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_facilitator_areas"();
--> statement-breakpoint
CREATE TRIGGER "facilitator_areas_delete" AFTER DELETE ON "users"
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_facilitator_areas"();
--> statement-breakpoint
CREATE FUNCTION "clear_facilitator_areas"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM facilitator_areas;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "facilitator_areas_truncate" AFTER TRUNCATE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION "clear_facilitator_areas"();
