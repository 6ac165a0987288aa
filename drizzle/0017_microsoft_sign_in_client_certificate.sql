ALTER TABLE "microsoft_sign_in_settings" ADD COLUMN "client_certificate" text;--> statement-breakpoint
ALTER TABLE "microsoft_sign_in_settings" ADD COLUMN "client_certificate_key_encrypted" text;