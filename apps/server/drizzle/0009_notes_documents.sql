CREATE TABLE "chart_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_user_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"kind" text DEFAULT 'upload' NOT NULL,
	"category" text DEFAULT 'other' NOT NULL,
	"name" text NOT NULL,
	"appointment_id" uuid,
	"uploaded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by_user_id" uuid,
	CONSTRAINT "chart_documents_kind_check" CHECK ("chart_documents"."kind" in ('upload', 'visit_summary')),
	CONSTRAINT "chart_documents_category_check" CHECK ("chart_documents"."category" in ('lab', 'imaging', 'referral', 'report', 'other'))
);
--> statement-breakpoint
CREATE TABLE "visit_note_addenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"note_id" uuid NOT NULL,
	"author_user_id" uuid NOT NULL,
	"body_html" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_note_diagnoses" (
	"note_id" uuid NOT NULL,
	"code" text NOT NULL,
	"position" integer NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	CONSTRAINT "visit_note_diagnoses_note_id_code_pk" PRIMARY KEY("note_id","code")
);
--> statement-breakpoint
CREATE TABLE "visit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"patient_user_id" uuid NOT NULL,
	"doctor_user_id" uuid NOT NULL,
	"subjective_html" text DEFAULT '' NOT NULL,
	"objective_html" text DEFAULT '' NOT NULL,
	"assessment_html" text DEFAULT '' NOT NULL,
	"plan_html" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp with time zone,
	"signed_by_user_id" uuid,
	CONSTRAINT "visit_notes_status_check" CHECK ("visit_notes"."status" in ('draft', 'signed')),
	CONSTRAINT "visit_notes_signed_check" CHECK (("visit_notes"."status" = 'signed') = ("visit_notes"."signed_at" is not null and "visit_notes"."signed_by_user_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "visit_vitals" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"patient_user_id" uuid NOT NULL,
	"temperature_c" numeric(4, 1),
	"heart_rate_bpm" integer,
	"systolic_mm_hg" integer,
	"diastolic_mm_hg" integer,
	"respiratory_rate" integer,
	"oxygen_saturation" integer,
	"weight_kg" numeric(5, 1),
	"height_cm" numeric(4, 1),
	"glucose_mg_dl" integer,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chart_documents" ADD CONSTRAINT "chart_documents_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_documents" ADD CONSTRAINT "chart_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_documents" ADD CONSTRAINT "chart_documents_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_documents" ADD CONSTRAINT "chart_documents_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_documents" ADD CONSTRAINT "chart_documents_removed_by_user_id_users_id_fk" FOREIGN KEY ("removed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_note_addenda" ADD CONSTRAINT "visit_note_addenda_note_id_visit_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."visit_notes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_note_addenda" ADD CONSTRAINT "visit_note_addenda_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_note_diagnoses" ADD CONSTRAINT "visit_note_diagnoses_note_id_visit_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."visit_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_note_diagnoses" ADD CONSTRAINT "visit_note_diagnoses_code_diagnosis_codes_code_fk" FOREIGN KEY ("code") REFERENCES "public"."diagnosis_codes"("code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_notes" ADD CONSTRAINT "visit_notes_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_notes" ADD CONSTRAINT "visit_notes_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_notes" ADD CONSTRAINT "visit_notes_doctor_user_id_users_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_notes" ADD CONSTRAINT "visit_notes_signed_by_user_id_users_id_fk" FOREIGN KEY ("signed_by_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_vitals" ADD CONSTRAINT "visit_vitals_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_vitals" ADD CONSTRAINT "visit_vitals_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chart_documents_patient_idx" ON "chart_documents" USING btree ("patient_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chart_documents_summary_key" ON "chart_documents" USING btree ("appointment_id") WHERE "chart_documents"."kind" = 'visit_summary';--> statement-breakpoint
CREATE INDEX "visit_note_addenda_note_idx" ON "visit_note_addenda" USING btree ("note_id","signed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_note_diagnoses_position_key" ON "visit_note_diagnoses" USING btree ("note_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_notes_appointment_key" ON "visit_notes" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "visit_notes_patient_idx" ON "visit_notes" USING btree ("patient_user_id","created_at");--> statement-breakpoint
CREATE INDEX "visit_vitals_patient_idx" ON "visit_vitals" USING btree ("patient_user_id","reported_at");--> statement-breakpoint
-- A signed note is never edited, only amended: once `status` is 'signed' the row cannot change
-- or go, its diagnoses are fixed, and addenda never change once written.
CREATE FUNCTION visit_notes_reject_signed_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'signed' THEN
    RAISE EXCEPTION 'visit note % is signed: % is not allowed', OLD.id, TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER visit_notes_signed_locked
  BEFORE UPDATE OR DELETE ON visit_notes
  FOR EACH ROW EXECUTE FUNCTION visit_notes_reject_signed_change();
--> statement-breakpoint
CREATE FUNCTION visit_note_diagnoses_reject_signed_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.note_id ELSE NEW.note_id END;
BEGIN
  IF EXISTS (SELECT 1 FROM visit_notes WHERE id = target AND status = 'signed') THEN
    RAISE EXCEPTION 'visit note % is signed: its diagnoses cannot change', target
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER visit_note_diagnoses_signed_locked
  BEFORE INSERT OR UPDATE OR DELETE ON visit_note_diagnoses
  FOR EACH ROW EXECUTE FUNCTION visit_note_diagnoses_reject_signed_change();
--> statement-breakpoint
CREATE FUNCTION visit_note_addenda_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'visit_note_addenda are signed when written: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER visit_note_addenda_immutable
  BEFORE UPDATE OR DELETE ON visit_note_addenda
  FOR EACH ROW EXECUTE FUNCTION visit_note_addenda_reject_change();
