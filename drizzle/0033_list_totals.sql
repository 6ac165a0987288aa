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
