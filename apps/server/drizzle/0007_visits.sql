CREATE TABLE "visit_guests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"language" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"session_token_hash" text,
	"revoked_at" timestamp with time zone,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_guests_role_check" CHECK ("visit_guests"."role" in ('interpreter', 'companion'))
);
--> statement-breakpoint
CREATE TABLE "visit_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"sender_user_id" uuid,
	"sender_guest_id" uuid,
	"sender_name" text NOT NULL,
	"sender_key" text NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"body" text,
	"file_id" uuid,
	"file_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_messages_kind_check" CHECK ("visit_messages"."kind" in ('text', 'file'))
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"chat_seq" integer DEFAULT 0 NOT NULL,
	"device_check" jsonb,
	"device_checked_at" timestamp with time zone,
	"device_risk" text,
	"running_late_minutes" integer,
	"running_late_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_device_risk_check" CHECK ("visits"."device_risk" in ('ok', 'warning', 'blocked')),
	CONSTRAINT "visits_chat_seq_check" CHECK ("visits"."chat_seq" >= 0)
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_guests" ADD CONSTRAINT "visit_guests_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_guests" ADD CONSTRAINT "visit_guests_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_messages" ADD CONSTRAINT "visit_messages_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_messages" ADD CONSTRAINT "visit_messages_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_messages" ADD CONSTRAINT "visit_messages_sender_guest_id_visit_guests_id_fk" FOREIGN KEY ("sender_guest_id") REFERENCES "public"."visit_guests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_messages" ADD CONSTRAINT "visit_messages_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visit_guests_token_key" ON "visit_guests" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_guests_session_key" ON "visit_guests" USING btree ("session_token_hash");--> statement-breakpoint
CREATE INDEX "visit_guests_appointment_idx" ON "visit_guests" USING btree ("appointment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_messages_seq_key" ON "visit_messages" USING btree ("appointment_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_messages_client_key" ON "visit_messages" USING btree ("appointment_id","sender_key","client_id");