import { noteSections, type NoteSection } from '@telemedicina/shared/notes';

export interface SignReadiness {
  /** The server will accept the signature (an assessment, a plan or a diagnosis: notes.service's rule). */
  isReady: boolean;
  /** What must still be written before signing; empty when ready. */
  missing: readonly 'assessmentPlanOrDiagnosis'[];
  /** Sections still empty (worth a look, not required). */
  emptySections: readonly NoteSection[];
}

/**
 * What stands between the draft and its signature, for the list above the editor, so a doctor who
 * ends a call sees at once what the note still needs. Mirrors the server's rule in
 * `signNote`: an assessment, a plan or at least one diagnosis.
 */
export function signReadiness(
  filled: Readonly<Record<NoteSection, boolean>>,
  diagnosisCount: number,
): SignReadiness {
  const isReady = filled.assessment || filled.plan || diagnosisCount > 0;
  return {
    isReady,
    missing: isReady ? [] : ['assessmentPlanOrDiagnosis'],
    emptySections: noteSections.filter((section) => !filled[section]),
  };
}
