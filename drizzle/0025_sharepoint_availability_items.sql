CREATE TABLE "sharepoint_availability_items" (
	"list_id" text NOT NULL,
	"key" text NOT NULL,
	"item_id" text NOT NULL,
	CONSTRAINT "sharepoint_availability_items_list_id_key_pk" PRIMARY KEY("list_id","key")
);
--> statement-breakpoint
CREATE INDEX "sharepoint_availability_items_item_idx" ON "sharepoint_availability_items" USING btree ("list_id","item_id");