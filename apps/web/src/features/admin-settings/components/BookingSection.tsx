import {
  ActionIcon,
  Chip,
  Group,
  Input,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Tooltip,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPlus } from '@tabler/icons-react';
import { findBookingRuleIssues } from '@telemedicina/shared/admin';
import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useLanguage } from '../../../lib/ui-state';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave, useSettingsErrorText } from './use-section-save';
import classes from './ClinicSettings.module.css';

/** Visit lengths offered as chips even when not chosen. */
export const presetVisitLengths = [10, 15, 20, 30, 45, 60, 90, 120] as const;

/** Each length once, as numbers, smallest first. */
const ascending = (values: readonly (number | string)[]) =>
  [...new Set(values.map(Number))].sort((a, b) => a - b);

/** The booking rules, plus the shared rules a schema cannot say (the server checks the same). */
export const bookingFormSchema = clinicSettingsSchema.shape.booking.superRefine((booking, context) => {
  // The form keeps the lengths sorted; only the default-length rule can fail here.
  for (const issue of findBookingRuleIssues({ ...booking, visitLengths: ascending(booking.visitLengths) })) {
    context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
});
type BookingForm = z.infer<typeof bookingFormSchema>;
const toValues = ({ booking }: ClinicSettings): BookingForm => ({
  ...booking,
  visitLengths: [...booking.visitLengths],
});

/** Minimum notice, cancellation window, the visit lengths doctors choose from and the default one. */
export function BookingSection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const errorText = useSettingsErrorText();
  const form = useForm<BookingForm>({
    resolver: zodResolver(bookingFormSchema),
    defaultValues: toValues(settings),
  });
  const save = useSectionSave(
    'booking',
    form,
    (booking) => ({ booking: { ...booking, visitLengths: ascending(booking.visitLengths) } }),
    toValues,
  );
  const { errors } = form.formState;
  const [customLength, setCustomLength] = useState<number | ''>('');
  const lengths = useWatch({ control: form.control, name: 'visitLengths' });
  const options = ascending([...presetVisitLengths, ...lengths]);
  const language = useLanguage();
  const minutes = (value: number) =>
    new Intl.NumberFormat(language, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(value);

  const handleAddLength = () => {
    if (customLength === '' || customLength < 1 || customLength > 240) {
      return;
    }
    form.setValue('visitLengths', ascending([...lengths, customLength]), {
      shouldDirty: true,
      shouldValidate: true,
    });
    setCustomLength('');
  };

  return (
    <SettingsSectionCard
      section="booking"
      title={t('clinicSettings.booking.title')}
      description={t('clinicSettings.booking.description')}
      {...save}
    >
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="minimumNoticeMinutes"
            render={({ field }) => (
              <NumberInput
                label={t('clinicSettings.booking.minimumNotice')}
                description={t('clinicSettings.booking.minimumNoticeHint')}
                suffix={` ${t('clinicSettings.units.minutesShort')}`}
                min={0}
                max={43_200}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(value) => field.onChange(value === '' ? undefined : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errorText(errors.minimumNoticeMinutes?.message)}
                data-testid="settings-minimum-notice"
              />
            )}
          />
          <Controller
            control={form.control}
            name="cancellationWindowHours"
            render={({ field }) => (
              <NumberInput
                label={t('clinicSettings.booking.cancellationWindow')}
                description={t('clinicSettings.booking.cancellationWindowHint')}
                suffix={` ${t('clinicSettings.units.hoursShort')}`}
                min={0}
                max={720}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(value) => field.onChange(value === '' ? undefined : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errorText(errors.cancellationWindowHours?.message)}
                data-testid="settings-cancellation-window"
              />
            )}
          />
        </SimpleGrid>

        <Stack gap={6}>
          <Controller
            control={form.control}
            name="visitLengths"
            render={({ field }) => (
              <Input.Wrapper
                label={t('clinicSettings.booking.visitLengths')}
                description={t('clinicSettings.booking.visitLengthsHint')}
                error={
                  errors.visitLengths
                    ? errorText(
                        errors.visitLengths.message ??
                          errors.visitLengths.root?.message ??
                          'validation.invalid',
                      )
                    : undefined
                }
                labelElement="div"
                labelProps={{ id: 'settings-visit-lengths-label' }}
                inputWrapperOrder={['label', 'description', 'input', 'error']}
              >
                {/* The chips report their values as text (the input's value): they are kept as text here. */}
                <Chip.Group
                  multiple
                  value={field.value.map(String)}
                  onChange={(value) => field.onChange(ascending(value))}
                >
                  <Group
                    gap={8}
                    mt={6}
                    role="group"
                    aria-labelledby="settings-visit-lengths-label"
                    data-testid="settings-visit-lengths"
                  >
                    {options.map((value) => (
                      <Chip
                        key={value}
                        value={String(value)}
                        variant="light"
                        data-testid={`settings-visit-length-${value}`}
                      >
                        {minutes(value)}
                      </Chip>
                    ))}
                  </Group>
                </Chip.Group>
              </Input.Wrapper>
            )}
          />
          <Group gap="xs" align="flex-end" className={classes.addLength}>
            <NumberInput
              label={t('clinicSettings.booking.addLength')}
              suffix={` ${t('clinicSettings.units.minutesShort')}`}
              min={1}
              max={240}
              allowDecimal={false}
              allowNegative={false}
              value={customLength}
              onChange={(value) => setCustomLength(typeof value === 'number' ? value : '')}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  handleAddLength();
                }
              }}
              w={160}
              data-testid="settings-add-length"
            />
            <Tooltip label={t('clinicSettings.booking.addLengthButton')}>
              <ActionIcon
                size={36}
                variant="light"
                onClick={handleAddLength}
                aria-label={t('clinicSettings.booking.addLengthButton')}
                data-testid="settings-add-length-button"
              >
                <IconPlus size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Stack>

        <Controller
          control={form.control}
          name="defaultVisitMinutes"
          render={({ field }) => (
            <NativeSelect
              label={t('clinicSettings.booking.defaultVisit')}
              description={t('clinicSettings.booking.defaultVisitHint')}
              data={[
                // A default that is no longer offered stays visible (and flagged) until it is changed.
                ...(lengths.includes(field.value)
                  ? []
                  : [{ value: String(field.value), label: minutes(field.value) }]),
                ...ascending(lengths).map((value) => ({ value: String(value), label: minutes(value) })),
              ]}
              value={String(field.value)}
              onChange={(event) => field.onChange(Number(event.currentTarget.value))}
              onBlur={field.onBlur}
              ref={field.ref}
              maw={320}
              error={errorText(errors.defaultVisitMinutes?.message)}
              data-testid="settings-default-visit"
            />
          )}
        />
      </Stack>
    </SettingsSectionCard>
  );
}
