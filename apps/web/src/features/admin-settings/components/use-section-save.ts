import type { UpdateClinicSettingsRequest } from '@telemedicina/shared/admin';
import type { ClinicSettings } from '@telemedicina/shared/clinic-settings';
import type { ParseKeys } from 'i18next';
import { useCallback, useState, type FormEvent } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { publishApiErrorAlert } from '../../../lib/api-client';
import { useFieldErrorText } from '../../../lib/form-errors';
import { useUpdateSettings } from '../api/update-settings';
import { applySectionErrors, type SettingsSection } from './section-errors';

/**
 * Saving one section: validates with the form's schema, sends `PATCH /settings` with that section
 * only, resets the form to what the server saved and shows the success notice until the next
 * edit. The server's validation issues land beside the fields; other errors go to the message
 * dialog.
 */
export function useSectionSave<TInput extends FieldValues, TOutput extends FieldValues>(
  section: SettingsSection,
  form: UseFormReturn<TInput, unknown, TOutput>,
  toBody: (values: TOutput) => UpdateClinicSettingsRequest,
  toValues: (settings: ClinicSettings) => TInput,
) {
  const update = useUpdateSettings();
  const fieldErrorText = useSettingsErrorText();
  const [wasSaved, setWasSaved] = useState(false);
  // The notice stays until the form is edited again.
  const isSaved = wasSaved && !form.formState.isDirty;

  const submit = form.handleSubmit(async (values) => {
    setWasSaved(false);
    try {
      const saved = await update.mutateAsync(toBody(values));
      form.reset(toValues(saved));
      setWasSaved(true);
    } catch (error) {
      if (!applySectionErrors(error, section, form.setError)) {
        publishApiErrorAlert(error);
      }
    }
  });

  const rootError = form.formState.errors.root?.server?.message;
  return {
    onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event),
    isSaving: update.isPending,
    isSaved,
    formError: fieldErrorText(typeof rootError === 'string' ? rootError : undefined),
  };
}

/**
 * Translates a field error of the settings forms: the screen's own checks carry
 * `clinicSettings.*` keys; everything else goes through the shared field-error text.
 */
export function useSettingsErrorText() {
  const { t, i18n } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  return useCallback(
    (message: string | undefined) =>
      message?.startsWith('clinicSettings.') && i18n.exists(message)
        ? t(message as ParseKeys)
        : fieldErrorText(message),
    [t, i18n, fieldErrorText],
  );
}
