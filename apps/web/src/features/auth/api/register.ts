import type { RegisterRequest } from '@telemedicina/shared/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `POST /auth/register` → 202 whether or not the email already has an account (no enumeration). */
export async function register(body: RegisterRequest): Promise<void> {
  await api.post('/auth/register', body, { alertOnError: false });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
