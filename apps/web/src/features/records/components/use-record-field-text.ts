import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldErrorText } from '../../../lib/form-errors';

/** Field errors of the chart forms: the shared `validation.*` keys plus this feature's `records.validation.*`. */
export function useRecordFieldText() {
  const { t, i18n } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  return useCallback(
    (message: string | undefined): string | undefined =>
      message !== undefined && /^records\.validation\.[A-Za-z]+$/.test(message) && i18n.exists(message)
        ? t(message as 'records.validation.unknownDiagnosisCode')
        : fieldErrorText(message),
    [t, i18n, fieldErrorText],
  );
}
