/**
 * The doctor's queue for the day: who is next and roughly when. Pure, so the
 * estimates are tested on their own.
 */

export interface QueueAppointment {
  id: string;
  startsAt: Date;
  endsAt: Date;
  status: string;
  checkedInAt: Date | null;
}

export interface QueueEstimate {
  /** 1 = next. */
  position: number;
  /** Whole minutes from now until the doctor should admit them (never negative). */
  waitMinutes: number;
}

const minuteMs = 60_000;

/**
 * Positions and waits of the checked-in patients of one doctor. The queue is
 * in appointment order (then check-in order). The doctor is busy until the
 * scheduled end of a visit in progress, shifted by the running-late notice;
 * each waiting visit starts at the later of that moment and its own start
 * (also shifted), and takes its scheduled length.
 */
export function estimateQueue(
  appointments: readonly QueueAppointment[],
  now: Date,
  runningLateMinutes: number | null,
): Map<string, QueueEstimate> {
  const lateMs = Math.max(0, runningLateMinutes ?? 0) * minuteMs;
  let freeAt = now.getTime();
  for (const appointment of appointments) {
    if (appointment.status === 'in_progress') {
      freeAt = Math.max(freeAt, appointment.endsAt.getTime() + lateMs);
    }
  }
  const waiting = appointments
    .filter((appointment) => appointment.status === 'checked_in')
    .sort(
      (a, b) =>
        a.startsAt.getTime() - b.startsAt.getTime() ||
        (a.checkedInAt?.getTime() ?? 0) - (b.checkedInAt?.getTime() ?? 0) ||
        a.id.localeCompare(b.id),
    );
  const result = new Map<string, QueueEstimate>();
  waiting.forEach((appointment, index) => {
    const startAt = Math.max(freeAt, appointment.startsAt.getTime() + lateMs);
    result.set(appointment.id, {
      position: index + 1,
      waitMinutes: Math.max(0, Math.ceil((startAt - now.getTime()) / minuteMs)),
    });
    freeAt = startAt + (appointment.endsAt.getTime() - appointment.startsAt.getTime());
  });
  return result;
}
