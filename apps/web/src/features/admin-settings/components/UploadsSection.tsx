import { Checkbox, NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  clinicSettingsSchema,
  uploadFileKinds,
  type ClinicSettings,
} from '@telemedicina/shared/clinic-settings';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave, useSettingsErrorText } from './use-section-save';

const uploadsFormSchema = clinicSettingsSchema.shape.uploads;
type UploadsForm = z.infer<typeof uploadsFormSchema>;
const toValues = ({ uploads }: ClinicSettings): UploadsForm => ({
  ...uploads,
  allowedKinds: [...uploads.allowedKinds],
});

/** What documents and chat files may be: largest size, allowed kinds, files per upload. */
export function UploadsSection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const errorText = useSettingsErrorText();
  const form = useForm<UploadsForm>({
    resolver: zodResolver(uploadsFormSchema),
    defaultValues: toValues(settings),
  });
  const save = useSectionSave(
    'uploads',
    form,
    // The kinds keep the catalogue's order, whatever order they were ticked in.
    (uploads) => ({
      uploads: {
        ...uploads,
        allowedKinds: uploadFileKinds.filter((kind) => uploads.allowedKinds.includes(kind)),
      },
    }),
    toValues,
  );
  const { errors } = form.formState;

  return (
    <SettingsSectionCard
      section="uploads"
      title={t('clinicSettings.uploads.title')}
      description={t('clinicSettings.uploads.description')}
      {...save}
    >
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="maxFileSizeMb"
            render={({ field }) => (
              <NumberInput
                label={t('clinicSettings.uploads.maxFileSize')}
                description={t('clinicSettings.uploads.maxFileSizeHint')}
                suffix=" MB"
                min={1}
                max={100}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(value) => field.onChange(value === '' ? undefined : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errorText(errors.maxFileSizeMb?.message)}
                data-testid="settings-max-file-size"
              />
            )}
          />
          <Controller
            control={form.control}
            name="maxFilesPerUpload"
            render={({ field }) => (
              <NumberInput
                label={t('clinicSettings.uploads.maxFiles')}
                description={t('clinicSettings.uploads.maxFilesHint')}
                min={1}
                max={20}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(value) => field.onChange(value === '' ? undefined : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errorText(errors.maxFilesPerUpload?.message)}
                data-testid="settings-max-files"
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="allowedKinds"
          render={({ field }) => (
            <Checkbox.Group
              label={t('clinicSettings.uploads.kinds')}
              description={t('clinicSettings.uploads.kindsHint')}
              value={field.value}
              onChange={field.onChange}
              error={errorText(errors.allowedKinds?.message ?? errors.allowedKinds?.root?.message)}
              data-testid="settings-allowed-kinds"
            >
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" mt="sm">
                {uploadFileKinds.map((kind) => (
                  <Checkbox
                    key={kind}
                    value={kind}
                    label={t(`clinicSettings.uploads.kind.${kind}`)}
                    data-testid={`settings-kind-${kind}`}
                  />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          )}
        />
      </Stack>
    </SettingsSectionCard>
  );
}
