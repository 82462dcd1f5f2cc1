import type { MfaEnableResponse, MfaSetupResponse } from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /me/mfa/setup` → a pending secret: QR code (made by the server), otpauth URL and manual key. */
export async function setupMfa(): Promise<MfaSetupResponse> {
  return api.post<MfaSetupResponse>('/me/mfa/setup');
}

/** `POST /me/mfa/enable` with a code from the app → the recovery codes, shown once; 400 MFA_INVALID. */
export async function enableMfa(code: string): Promise<MfaEnableResponse> {
  return api.post<MfaEnableResponse>('/me/mfa/enable', { code }, { alertOnError: false });
}

/** `POST /me/mfa/disable` with the password and a code → 204; 409 MFA_REQUIRED_BY_POLICY. */
export async function disableMfa(body: { password: string; code: string }): Promise<void> {
  await api.post('/me/mfa/disable', body, { alertOnError: false });
}

/** `POST /me/mfa/recovery-codes` with a code → a new set of recovery codes (the old ones stop working). */
export async function regenerateRecoveryCodes(code: string): Promise<MfaEnableResponse> {
  return api.post<MfaEnableResponse>('/me/mfa/recovery-codes', { code }, { alertOnError: false });
}

export function useSetupMfa() {
  return useMutation({ mutationFn: setupMfa });
}

/**
 * Enabling does not refresh the user at once: the recovery codes must stay on screen until the
 * person confirms they saved them (`refreshMe` runs then).
 */
export function useEnableMfa() {
  return useMutation({ mutationFn: enableMfa });
}

export function useDisableMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableMfa,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me(), exact: true }),
  });
}

export function useRegenerateRecoveryCodes() {
  return useMutation({ mutationFn: regenerateRecoveryCodes });
}

/** Asks for the user again (after the second factor changed, the session's restrictions change). */
export function useRefreshMe() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.me(), exact: true });
}
