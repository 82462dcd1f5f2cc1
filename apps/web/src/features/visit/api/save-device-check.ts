import { deviceCheckSchema, type DeviceCheck, type DeviceCheckResult } from '@telemedicina/shared/visits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `PUT /visits/:appointmentId/device-check`: stores what the browser found, for staff to see. */
export async function saveDeviceCheck(
  appointmentId: string,
  result: DeviceCheckResult,
): Promise<DeviceCheck> {
  const body = await api.put<unknown>(`/visits/${encodeURIComponent(appointmentId)}/device-check`, result, {
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(deviceCheckSchema, body);
}

export function useSaveDeviceCheck(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (result: DeviceCheckResult) => saveDeviceCheck(appointmentId, result),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.visit.state(appointmentId) }),
  });
}
