CREATE TABLE "booking_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"offer_id" integer,
	"fields" jsonb,
	"created_by" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_outbox_kind_check" CHECK ("booking_outbox"."kind" in ('create', 'assign'))
);--> statement-breakpoint
CREATE TABLE "offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"state" text DEFAULT 'sent' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"reply_by" timestamp with time zone NOT NULL,
	"override" text,
	"auto_next" boolean DEFAULT false NOT NULL,
	"offered_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone,
	"responded_at" timestamp with time zone,
	"decline_reason" text DEFAULT '' NOT NULL,
	"ended_reason" text,
	"link_nonce" text,
	"emailed_at" timestamp with time zone,
	"email_error" text,
	"write_back" text,
	CONSTRAINT "offers_state_check" CHECK ("offers"."state" in ('sent', 'seen', 'accepted', 'declined', 'expired', 'withdrawn'))
);--> statement-breakpoint
ALTER TABLE "change_history" DROP CONSTRAINT "change_history_entity_check";--> statement-breakpoint
ALTER TABLE "change_history" DROP CONSTRAINT "change_history_via_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "booking_outbox" ADD CONSTRAINT "booking_outbox_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_outbox" ADD CONSTRAINT "booking_outbox_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_offered_by_users_id_fk" FOREIGN KEY ("offered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_outbox_next_attempt_idx" ON "booking_outbox" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_accepted_per_booking" ON "offers" USING btree ("booking_id") WHERE "offers"."state" = 'accepted';--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_live_per_person" ON "offers" USING btree ("booking_id","user_id") WHERE "offers"."state" in ('sent', 'seen');--> statement-breakpoint
CREATE INDEX "offers_user_idx" ON "offers" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "offers_live_reply_by_idx" ON "offers" USING btree ("reply_by") WHERE "offers"."state" in ('sent', 'seen');--> statement-breakpoint
ALTER TABLE "change_history" ADD CONSTRAINT "change_history_entity_check" CHECK ("change_history"."entity" in ('availability', 'note', 'account', 'settings', 'offer', 'session'));--> statement-breakpoint
ALTER TABLE "change_history" ADD CONSTRAINT "change_history_via_check" CHECK ("change_history"."via" in ('facilitator', 'staff', 'bulk', 'pattern', 'sharepoint', 'email', 'automatic'));
