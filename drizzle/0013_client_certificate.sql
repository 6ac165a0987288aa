ALTER TABLE "sharepoint_settings" ADD COLUMN "client_certificate" text;--> statement-breakpoint
ALTER TABLE "sharepoint_settings" ADD COLUMN "client_certificate_key_encrypted" text;
