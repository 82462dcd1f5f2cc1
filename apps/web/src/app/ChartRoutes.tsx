import { ChartConsentsSection } from '../features/consents';
import { ChartIntakeSection } from '../features/intake';
import { ChartNotesSection } from '../features/notes';
import { ChartPage, MyRecordPage } from '../features/records';

const renderNotes = (patientId: string) => (
  <>
    <ChartConsentsSection patientId={patientId} />
    <ChartNotesSection patientId={patientId} />
  </>
);

/** A patient's chart with its visit notes section and, for clinicians, the intake forms (composition only). */
export function ChartRoute() {
  return (
    <ChartPage
      renderNotes={(patientId) => (
        <>
          <ChartIntakeSection patientId={patientId} />
          {renderNotes(patientId)}
        </>
      )}
    />
  );
}

/** The patient's own chart with their signed visit notes (composition only). */
export function MyRecordRoute() {
  return <MyRecordPage renderNotes={renderNotes} />;
}
