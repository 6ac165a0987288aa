ALTER TABLE "microsoft_identities" ADD COLUMN "sign_in_name" text;--> statement-breakpoint
ALTER TABLE "microsoft_invitations" ADD COLUMN "replaces_identity" boolean DEFAULT false NOT NULL;