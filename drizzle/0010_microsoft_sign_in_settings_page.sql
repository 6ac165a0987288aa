ALTER TABLE "microsoft_sign_in_settings" ADD COLUMN "tenant_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "microsoft_sign_in_settings" ADD COLUMN "client_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "microsoft_sign_in_settings" ADD COLUMN "client_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "microsoft_sign_in_settings" ADD COLUMN "staff_role" text DEFAULT '' NOT NULL;
