CREATE TABLE "microsoft_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issuer" text NOT NULL,
	"tenant_id" text NOT NULL,
	"object_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	CONSTRAINT "microsoft_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX "microsoft_identities_subject_key" ON "microsoft_identities" USING btree ("issuer","tenant_id","object_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "microsoft_identities_user_key" ON "microsoft_identities" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "microsoft_invitations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "microsoft_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "microsoft_invitations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX "microsoft_invitations_user_key" ON "microsoft_invitations" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "microsoft_sign_in_requests" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "microsoft_sign_in_requests_expires_idx" ON "microsoft_sign_in_requests" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "microsoft_sign_in_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"staff_password_sign_in" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "microsoft_sign_in_settings_single_row" CHECK ("microsoft_sign_in_settings"."id" = 1)
);
