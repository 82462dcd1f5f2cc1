/**
 * When a video visit may be joined, and by how many: plain numbers, without the visit
 * contracts' schemas, for the pages that only need to know whether a visit is open.
 */

/** How long before the start the patient may check in (minutes). */
export const visitCheckInOpensMinutesBefore = 15;
/** How long after the scheduled end a visit may still be joined (minutes). */
export const visitJoinGraceMinutes = 60;
/** Up to four people in one call (doctor, patient, interpreter or companion), as a mesh. */
export const maxVisitParticipants = 4;
