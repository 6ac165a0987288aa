-- One canonical username (docs/decisions/0010-canonical-usernames.md): NFKC, then case-folded, kept in
-- its own column with the unique index, instead of the database's lower() (which folded U+0130 to
-- "i" while the application's toLowerCase() did not). username_skeleton is what the name looks like
-- (look-alike letters mapped to one), unique too. Both are computed by the application; the SQL
-- below is a close first fill that the application corrects at start.
ALTER TABLE "users" ADD COLUMN "username_canonical" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username_skeleton" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
UPDATE "users" SET "username_canonical" = lower(normalize(btrim("username"), NFKC));
--> statement-breakpoint
-- Accounts that already collide under the new form: the oldest keeps the name, the others get a key
-- no sign-in can type (a "#" and their id) until staff rename them.
UPDATE "users" AS u SET "username_canonical" = u."username_canonical" || '#' || u."id"
	WHERE EXISTS (
		SELECT 1 FROM "users" AS o WHERE o."username_canonical" = u."username_canonical" AND o."id" < u."id"
	);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "username_canonical" SET NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "users_username_lower_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_canonical_key" ON "users" USING btree ("username_canonical");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_skeleton_key" ON "users" USING btree ("username_skeleton");
