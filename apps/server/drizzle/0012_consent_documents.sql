CREATE TABLE "consent_document_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"title_es" text NOT NULL,
	"title_en" text NOT NULL,
	"body_es" text NOT NULL,
	"body_en" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"published_by_user_id" uuid,
	CONSTRAINT "consent_document_versions_version_check" CHECK ("consent_document_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "consent_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"system_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" uuid,
	CONSTRAINT "consent_documents_kind_check" CHECK ("consent_documents"."kind" in ('telemedicine', 'data_processing', 'procedure'))
);
--> statement-breakpoint
CREATE TABLE "consent_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_user_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"language" text NOT NULL,
	"method" text NOT NULL,
	"signature_file_id" uuid,
	"typed_name" text,
	"signer_name" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text,
	"content_sha256" text NOT NULL,
	"pdf_file_id" uuid NOT NULL,
	"chart_document_id" uuid,
	"verification_code" text NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"withdrawal_reason" text,
	CONSTRAINT "consent_signatures_method_check" CHECK ("consent_signatures"."method" in ('drawn', 'typed')),
	CONSTRAINT "consent_signatures_language_check" CHECK ("consent_signatures"."language" in ('es', 'en')),
	CONSTRAINT "consent_signatures_signature_check" CHECK (("consent_signatures"."method" = 'drawn' and "consent_signatures"."signature_file_id" is not null) or ("consent_signatures"."method" = 'typed' and "consent_signatures"."typed_name" is not null)),
	CONSTRAINT "consent_signatures_withdrawal_check" CHECK (("consent_signatures"."withdrawn_at" is null) = ("consent_signatures"."withdrawal_reason" is null))
);
--> statement-breakpoint
ALTER TABLE "chart_documents" DROP CONSTRAINT "chart_documents_kind_check";--> statement-breakpoint
ALTER TABLE "consent_document_versions" ADD CONSTRAINT "consent_document_versions_document_id_consent_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."consent_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_document_versions" ADD CONSTRAINT "consent_document_versions_published_by_user_id_users_id_fk" FOREIGN KEY ("published_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_documents" ADD CONSTRAINT "consent_documents_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_version_id_consent_document_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."consent_document_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_signature_file_id_files_id_fk" FOREIGN KEY ("signature_file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_pdf_file_id_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_chart_document_id_chart_documents_id_fk" FOREIGN KEY ("chart_document_id") REFERENCES "public"."chart_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_document_versions_key" ON "consent_document_versions" USING btree ("document_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "consent_documents_system_key" ON "consent_documents" USING btree ("system_key");--> statement-breakpoint
CREATE INDEX "consent_signatures_patient_idx" ON "consent_signatures" USING btree ("patient_user_id","signed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "consent_signatures_code_key" ON "consent_signatures" USING btree ("verification_code");--> statement-breakpoint
ALTER TABLE "chart_documents" ADD CONSTRAINT "chart_documents_kind_check" CHECK ("chart_documents"."kind" in ('upload', 'visit_summary', 'consent'));