import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiErrorMessageKey } from './api-client';
import { formatWaitDuration } from './format';
import { useLanguage } from './ui-state';

/**
 * A failed request as one translated sentence for the screen that made it. Lockouts and rate
 * limits say how long to wait (`details.retryAfterSeconds` or `Retry-After`), in words.
 */
export function useApiErrorText() {
  const { t } = useTranslation();
  const language = useLanguage();
  return useCallback(
    (error: unknown): string => {
      if (!(error instanceof ApiError)) {
        return t('errors.unexpected');
      }
      if (error.code === 'ACCOUNT_LOCKED') {
        return t('auth.errors.lockedFor', {
          duration: formatWaitDuration(error.retryAfterSeconds ?? 15 * 60, language, 'minute'),
        });
      }
      if (error.code === 'RATE_LIMITED' && error.retryAfterSeconds !== null) {
        return t('auth.errors.rateLimitedFor', {
          duration: formatWaitDuration(error.retryAfterSeconds, language),
        });
      }
      return t(apiErrorMessageKey(error));
    },
    [t, language],
  );
}
