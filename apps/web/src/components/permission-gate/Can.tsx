import type { ReactNode } from 'react';
import { useHasAnyPermission } from '../../lib/ui-state';

export interface CanProps {
  /** Shown when the current user holds at least one of these permission names. */
  anyOf: readonly string[];
  children: ReactNode;
  /** Shown otherwise (nothing by default). */
  fallback?: ReactNode;
}

/**
 * Shows its children only to users holding at least one of the permissions — for hiding what a
 * person cannot use; the server enforces the same permissions on every endpoint.
 */
export function Can({ anyOf, children, fallback = null }: CanProps) {
  return useHasAnyPermission(anyOf) ? children : fallback;
}
