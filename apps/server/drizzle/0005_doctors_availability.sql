CREATE TABLE "availability_exceptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"doctor_user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_exceptions_kind_check" CHECK ("availability_exceptions"."kind" in ('time_off', 'extra')),
	CONSTRAINT "availability_exceptions_time_order_check" CHECK ("availability_exceptions"."ends_at" > "availability_exceptions"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "availability_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"doctor_user_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"time_zone" text NOT NULL,
	"valid_from" date,
	"valid_until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_rules_weekday_check" CHECK ("availability_rules"."weekday" between 1 and 7),
	CONSTRAINT "availability_rules_time_order_check" CHECK ("availability_rules"."end_time" > "availability_rules"."start_time"),
	CONSTRAINT "availability_rules_validity_check" CHECK ("availability_rules"."valid_from" is null or "availability_rules"."valid_until" is null or "availability_rules"."valid_until" >= "availability_rules"."valid_from")
);
--> statement-breakpoint
ALTER TABLE "doctor_profiles" ADD COLUMN "bio_es" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "doctor_profiles" ADD COLUMN "bio_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "doctor_profiles" ADD COLUMN "accepts_new_patients" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "availability_exceptions" ADD CONSTRAINT "availability_exceptions_doctor_user_id_doctor_profiles_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."doctor_profiles"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability_rules" ADD CONSTRAINT "availability_rules_doctor_user_id_doctor_profiles_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."doctor_profiles"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_exceptions_doctor_idx" ON "availability_exceptions" USING btree ("doctor_user_id","starts_at");--> statement-breakpoint
CREATE INDEX "availability_rules_doctor_idx" ON "availability_rules" USING btree ("doctor_user_id","weekday");--> statement-breakpoint
CREATE INDEX "doctor_profiles_languages_idx" ON "doctor_profiles" USING gin ("languages");--> statement-breakpoint
ALTER TABLE "doctor_profiles" ADD CONSTRAINT "doctor_profiles_visit_minutes_check" CHECK ("doctor_profiles"."visit_minutes" between 5 and 240);