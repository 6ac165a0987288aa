-- List answers are read from their tables on each request and revalidated by ETag (ADR 81): the
-- texts and compressed answers kept between requests go, with the triggers that emptied them when
-- accounts were deleted.
DROP TRIGGER "users_delete_forget_kept_list_answers" ON "users";--> statement-breakpoint
DROP TRIGGER "users_truncate_forget_kept_list_answers" ON "users";--> statement-breakpoint
DROP FUNCTION "forget_kept_list_answers"();--> statement-breakpoint
DROP TABLE "availability_range_json" CASCADE;--> statement-breakpoint
DROP TABLE "list_answers_kept" CASCADE;--> statement-breakpoint
DROP TABLE "users_list_json" CASCADE;--> statement-breakpoint
-- The staff grid's order: its pages are read from this index, each from where the last one ended.
CREATE INDEX "users_grid_order_idx" ON "users" USING btree (lower(coalesce(nullif(btrim("display_name"), ''), "username")),"id") WHERE "users"."role" <> 'staff';
