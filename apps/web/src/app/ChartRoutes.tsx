import { ChartConsentsSection } from '../features/consents';
import { ChartNotesSection } from '../features/notes';
import { ChartPage, MyRecordPage } from '../features/records';

const renderNotes = (patientId: string) => (
  <>
    <ChartConsentsSection patientId={patientId} />
    <ChartNotesSection patientId={patientId} />
  </>
);

/** A patient's chart with its visit notes section (composition only). */
export function ChartRoute() {
  return <ChartPage renderNotes={renderNotes} />;
}

/** The patient's own chart with their signed visit notes (composition only). */
export function MyRecordRoute() {
  return <MyRecordPage renderNotes={renderNotes} />;
}
