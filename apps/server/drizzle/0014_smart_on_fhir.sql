CREATE TABLE "oauth_records" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oauth_records_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "smart_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"registration" text NOT NULL,
	"registered_by_user_id" uuid,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_at" timestamp with time zone,
	"blocked_by_user_id" uuid
);
--> statement-breakpoint
CREATE TABLE "smart_connections" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"patient_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"disconnected_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "smart_signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"sealed_jwks" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "smart_clients" ADD CONSTRAINT "smart_clients_registered_by_user_id_users_id_fk" FOREIGN KEY ("registered_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_clients" ADD CONSTRAINT "smart_clients_blocked_by_user_id_users_id_fk" FOREIGN KEY ("blocked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_connections" ADD CONSTRAINT "smart_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_records_grant_id" ON "oauth_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_records_uid" ON "oauth_records" USING btree ("model","uid");--> statement-breakpoint
CREATE INDEX "oauth_records_expires_at" ON "oauth_records" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "smart_connections_user_id" ON "smart_connections" USING btree ("user_id","created_at");