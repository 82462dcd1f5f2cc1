ALTER TABLE "appointment_reminders" DROP CONSTRAINT "appointment_reminders_kind_check";--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_kind_check" CHECK ("appointment_reminders"."kind" in ('24h', '1h', 'intake'));--> statement-breakpoint
-- Visits booked before this migration whose forms are still open get their intake reminder too.
INSERT INTO "appointment_reminders" ("appointment_id", "kind", "due_at")
SELECT DISTINCT a."id", 'intake', a."starts_at" - interval '24 hours'
FROM "appointments" a
JOIN "questionnaire_responses" r ON r."appointment_id" = a."id" AND r."status" = 'in-progress'
WHERE a."status" IN ('requested', 'confirmed') AND a."starts_at" - interval '24 hours' > now()
ON CONFLICT DO NOTHING;
