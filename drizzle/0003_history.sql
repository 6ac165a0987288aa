CREATE TABLE "change_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"entity" text NOT NULL,
	"action" text NOT NULL,
	"subject_user_id" integer,
	"subject_name" text,
	"date" date,
	"actor_id" integer,
	"actor_name" text,
	"via" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "change_history_entity_check" CHECK ("change_history"."entity" in ('availability', 'note', 'account', 'settings')),
	CONSTRAINT "change_history_action_check" CHECK ("change_history"."action" in ('create', 'update', 'delete')),
	CONSTRAINT "change_history_via_check" CHECK ("change_history"."via" in ('facilitator', 'staff', 'bulk', 'pattern', 'sharepoint'))
);
--> statement-breakpoint
CREATE INDEX "change_history_subject_idx" ON "change_history" USING btree ("subject_user_id","id");--> statement-breakpoint
CREATE INDEX "change_history_subject_date_idx" ON "change_history" USING btree ("subject_user_id","date");--> statement-breakpoint
-- Append-only. The app never updates or deletes history; these triggers make sure no code path, script
-- or injected statement can either. A row is never updated. The one way to remove rows is a deliberate
-- purge that first runs `set local change_history.purge = 'on'` in its transaction (the test suites'
-- restore does; a retention job would).
CREATE FUNCTION "change_history_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' OR current_setting('change_history.purge', true) IS DISTINCT FROM 'on' THEN
		RAISE EXCEPTION 'change_history is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF TG_OP = 'TRUNCATE' THEN
		RETURN NULL;
	END IF;
	RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "change_history_append_only" BEFORE UPDATE OR DELETE ON "change_history"
	FOR EACH ROW EXECUTE FUNCTION "change_history_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "change_history_no_truncate" BEFORE TRUNCATE ON "change_history"
	FOR EACH STATEMENT EXECUTE FUNCTION "change_history_refuse_change"();
