import type { AnswerMap } from '@telemedicina/shared/intake-logic';
import type { App } from '../app.js';
import {
  findQuestionnaireBySystemKey,
  insertAssignment,
} from '../modules/questionnaires/questionnaires.repository.js';
import { createDoctor, everyDay, type TestDoctor } from './booking-fixtures.js';

/**
 * Test fixtures of intake: a doctor (Madrid, open 09:00–13:00 every day) with the shipped PHQ-9
 * attached to their appointments, so every booking with them sends the form; and PHQ-9 answers.
 */
export async function createDoctorWithPhq9(app: App): Promise<TestDoctor> {
  const doctor = await createDoctor(app, { rules: everyDay('09:00', '13:00') });
  const phq9 = await findQuestionnaireBySystemKey(app.services.db, 'phq9');
  if (phq9 === null) {
    throw new Error('PHQ-9 is not seeded');
  }
  await insertAssignment(app.services.db, { questionnaireId: phq9.id, doctorUserId: doctor.id });
  return doctor;
}

/** A choice answer: the option's code. */
export const choice = (code: string) => [{ valueCoding: { code } }];

/** Items 1–8 of PHQ-9 answered with `code`, item 9 (thoughts of self-harm) with `item9`. */
export function phq9Answers(code: string, item9: string): AnswerMap {
  const answers: AnswerMap = {};
  for (let index = 1; index <= 8; index += 1) {
    answers[`phq9-${index}`] = choice(code);
  }
  answers['phq9-9'] = choice(item9);
  return answers;
}
