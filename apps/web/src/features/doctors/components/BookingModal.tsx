import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { appointmentReasonSchema, slotTakenDetailsSchema } from '@telemedicina/shared/booking';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { formatLongDateTime, formatShortDateTime, zonesDiffer } from '../../../components/slot-picker';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useBookAppointment, usePatientOptions } from '../api/doctors';
import { formatTimeZoneName } from '../../../lib/clock';
import classes from './Doctors.module.css';

const bookingFormSchema = z.object({ reason: appointmentReasonSchema, patientId: z.string() });
type BookingForm = z.infer<typeof bookingFormSchema>;

export interface BookingModalProps {
  doctor: { id: string; name: string; timeZone: string };
  /** The chosen slot's start (ISO); null keeps the dialog closed. */
  startsAt: string | null;
  viewerTimeZone: string;
  onClose: () => void;
}

/** The next free slots offered by a 409 SLOT_TAKEN answer, or null for any other error. */
export function slotTakenAlternatives(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.code !== 'SLOT_TAKEN') {
    return null;
  }
  const details = slotTakenDetailsSchema.safeParse(error.details);
  return details.success ? details.data.nextSlots.map((slot) => slot.startsAt) : [];
}

/**
 * Booking one slot: the time (in the viewer's zone, and the doctor's too when they differ), the
 * reason for the visit and — for staff who may book for patients and read accounts — the patient.
 * A slot taken meanwhile (409) shows the doctor's next free times as one-click alternatives; a
 * booked appointment opens its page.
 */
export function BookingModal({ doctor, startsAt, viewerTimeZone, onClose }: BookingModalProps) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={startsAt !== null}
      onClose={onClose}
      title={<Text fw={650}>{t('doctors.booking.title', { name: doctor.name })}</Text>}
      centered
      size="lg"
    >
      {startsAt !== null ? (
        <BookingForm
          doctor={doctor}
          initialStartsAt={startsAt}
          viewerTimeZone={viewerTimeZone}
          onClose={onClose}
        />
      ) : null}
    </AppModal>
  );
}

function BookingForm({
  doctor,
  initialStartsAt,
  viewerTimeZone,
  onClose,
}: Omit<BookingModalProps, 'startsAt'> & { initialStartsAt: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const book = useBookAppointment();
  const canBookAny = useHasAnyPermission(['appointments.book.any']);
  const canBookSelf = useHasAnyPermission(['appointments.book.self']);
  const canReadUsers = useHasAnyPermission(['users.read']);
  const choosesPatient = canBookAny && canReadUsers;
  const [startsAt, setStartsAt] = useState(initialStartsAt);
  const [alternatives, setAlternatives] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [patientSearch, setPatientSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(patientSearch.trim(), 300);
  const patients = usePatientOptions(debouncedSearch, choosesPatient);
  const form = useForm<BookingForm>({
    resolver: zodResolver(bookingFormSchema),
    defaultValues: { reason: '', patientId: '' },
  });
  const { errors } = form.formState;
  const reason = useWatch({ control: form.control, name: 'reason' });
  const patientId = useWatch({ control: form.control, name: 'patientId' });
  // Staff booking for a patient write down what the patient says; a patient tells it themselves.
  const isForPatient = choosesPatient && (!canBookSelf || patientId !== '');

  const showsDoctorZone = zonesDiffer(viewerTimeZone, doctor.timeZone, new Date(startsAt));

  const handleSubmit = form.handleSubmit(async (values) => {
    if (choosesPatient && !canBookSelf && values.patientId === '') {
      form.setError('patientId', { type: 'required', message: 'doctors.booking.patientRequired' });
      return;
    }
    setFailure(null);
    try {
      const appointment = await book.mutateAsync({
        doctorId: doctor.id,
        startsAt,
        reason: values.reason,
        patientId: choosesPatient && values.patientId ? values.patientId : undefined,
      });
      await navigate(`/admin/appointments/${encodeURIComponent(appointment.id)}`);
    } catch (error) {
      const offered = slotTakenAlternatives(error);
      if (offered !== null) {
        setAlternatives(offered);
        setFailure(error);
        return;
      }
      setAlternatives(null);
      if (!applyServerFieldErrors(error, form.setError, ['reason', 'patientId'])) {
        setFailure(error);
      }
    }
  });

  const pickAlternative = (next: string) => {
    setStartsAt(next);
    setAlternatives(null);
    setFailure(null);
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="booking-form">
      <Stack gap="md">
        <Stack gap={2}>
          <Text size="sm" c="gray.7">
            {t('doctors.booking.when')}
          </Text>
          <Text fw={600} data-testid="booking-time">
            {formatLongDateTime(startsAt, language, viewerTimeZone)}
          </Text>
          {showsDoctorZone ? (
            <>
              <Text size="xs" c="gray.7" data-testid="booking-viewer-zone">
                {t('doctors.booking.yourZone', { zone: formatTimeZoneName(viewerTimeZone, language) })}
              </Text>
              <Text size="sm" data-testid="booking-doctor-time">
                {t('doctors.booking.doctorTime', {
                  time: formatLongDateTime(startsAt, language, doctor.timeZone),
                  zone: formatTimeZoneName(doctor.timeZone, language),
                })}
              </Text>
            </>
          ) : null}
        </Stack>
        {choosesPatient ? (
          <Controller
            control={form.control}
            name="patientId"
            render={({ field }) => (
              <Select
                label={t('doctors.booking.patient')}
                placeholder={t('doctors.booking.patientPlaceholder')}
                searchable
                clearable
                required={!canBookSelf}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                searchValue={patientSearch}
                onSearchChange={setPatientSearch}
                filter={({ options }) => options}
                data={(patients.data ?? []).map((patient) => ({
                  value: patient.id,
                  label: `${patient.name} · ${patient.email}`,
                }))}
                nothingFoundMessage={t('doctors.booking.noPatients')}
                error={
                  errors.patientId?.message
                    ? t(errors.patientId.message as 'doctors.booking.patientRequired')
                    : undefined
                }
                data-testid="booking-patient"
              />
            )}
          />
        ) : null}
        <Textarea
          label={isForPatient ? t('doctors.booking.reasonForPatient') : t('doctors.booking.reason')}
          description={
            isForPatient
              ? t('doctors.booking.reasonForPatientHint', { count: reason.length })
              : t('doctors.booking.reasonHint', { count: reason.length })
          }
          required
          rows={4}
          maxLength={500}
          {...form.register('reason')}
          error={fieldErrorText(errors.reason?.message)}
          data-testid="booking-reason"
        />
        {failure ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} data-testid="booking-error">
            <Stack gap="xs">
              <Text size="sm">{errorText(failure)}</Text>
              {alternatives && alternatives.length > 0 ? (
                <Group gap="xs" data-testid="booking-alternatives">
                  {alternatives.map((alternative) => (
                    <Button
                      key={alternative}
                      size="compact-sm"
                      variant="white"
                      onClick={() => pickAlternative(alternative)}
                      data-testid="booking-alternative"
                    >
                      {formatShortDateTime(alternative, language, viewerTimeZone)}
                    </Button>
                  ))}
                </Group>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <div className={classes.formActions}>
          <Button variant="default" onClick={onClose} disabled={book.isPending} data-testid="booking-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={book.isPending} data-testid="booking-confirm">
            {t('doctors.booking.confirm')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
