import type { DashboardResponse } from '@telemedicina/shared/admin';
import { appointmentStatuses } from '@telemedicina/shared/common';
import { sumAppointments, type DashboardData } from './dashboard.service.js';

export function presentDashboard(data: DashboardData): DashboardResponse {
  const totals = sumAppointments(data.appointmentsPerDay);
  const attended = totals.completed + totals.no_show;
  return {
    range: { ...data.range },
    totals: {
      activeUsers: data.headCounts.activeUsers,
      patients: data.headCounts.patients,
      doctors: data.headCounts.doctors,
      appointments: appointmentStatuses.reduce((sum, status) => sum + totals[status], 0),
      completed: totals.completed,
      noShows: totals.no_show,
      cancelled: totals.cancelled,
      noShowRate: attended === 0 ? null : totals.no_show / attended,
      averageWaitSeconds: data.averageWaitSeconds === null ? null : Math.round(data.averageWaitSeconds),
      newPatients: data.newPatientsPerDay.reduce((sum, day) => sum + day.count, 0),
    },
    appointmentsPerDay: data.appointmentsPerDay.map((day) => ({ ...day })),
    newPatientsPerDay: data.newPatientsPerDay.map((day) => ({ ...day })),
    visitsPerDoctor: data.visitsPerDoctor.map((doctor) => ({ ...doctor })),
  };
}
