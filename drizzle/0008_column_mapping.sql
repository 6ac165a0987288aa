-- Staff's corrections to the automatic matching of portal fields to SharePoint columns, per list.
ALTER TABLE "sharepoint_settings" ADD COLUMN "column_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL;
