import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Alert, Button, Group, Loader, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertTriangle, IconMailForward, IconSearch, IconUserPlus } from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import { appointmentReasonSchema } from '@telemedicina/shared/booking';
import type { PatientMatch } from '@telemedicina/shared/reception';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import { formatCalendarDate } from '../../../lib/clock';
import { useClock } from '../../../lib/use-clock';
import { useBookForPatient } from '../api/book-for-patient';
import { usePatientLookup } from '../api/look-up-patients';
import classes from './ReceptionBooking.module.css';
import { RegisterPatientForm } from './RegisterPatientForm';

/** The free time reception is booking. */
export interface BookingTarget {
  doctor: { id: string; name: string };
  startsAt: string;
  endsAt: string;
}

const reasonFormSchema = z.object({ reason: appointmentReasonSchema });
type ReasonForm = z.infer<typeof reasonFormSchema>;

/**
 * Booking a free time for a patient, as reception does it on the phone or at the desk: find the
 * patient (name, phone or date of birth), or register a new one (the invitation email lets them
 * set a password), write down the reason as the patient tells it, book.
 */
export function ReceptionBookingModal({
  target,
  onClose,
  onBooked,
}: {
  target: BookingTarget;
  onClose: () => void;
  onBooked: (appointment: Appointment) => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const [mode, setMode] = useState<'find' | 'register'>('find');
  const [patient, setPatient] = useState<PatientMatch | null>(null);
  const [invitedTo, setInvitedTo] = useState<string | null>(null);
  const book = useBookForPatient();
  const form = useForm<ReasonForm>({
    resolver: zodResolver(reasonFormSchema),
    defaultValues: { reason: '' },
  });
  // Once the patient is chosen (found or just registered), the cursor goes to the reason.
  const patientId = patient?.id ?? null;
  useEffect(() => {
    if (patientId !== null && mode === 'find') {
      form.setFocus('reason');
    }
  }, [patientId, mode, form]);

  const handleSubmit = form.handleSubmit(async ({ reason }) => {
    if (patient === null) {
      return;
    }
    const appointment = await book
      .mutateAsync({ doctorId: target.doctor.id, startsAt: target.startsAt, reason, patientId: patient.id })
      .catch(() => null);
    if (appointment !== null) {
      onBooked(appointment);
    }
  });

  const when = t('agenda.booking.when', {
    time: clock.timeRange(target.startsAt, target.endsAt),
    date: clock.date(target.startsAt),
    doctor: target.doctor.name,
  });

  return (
    <AppModal
      opened
      onClose={onClose}
      size="lg"
      title={
        <Text component="span" fw={650}>
          {mode === 'register' ? t('agenda.register.title') : t('agenda.booking.title')}
        </Text>
      }
    >
      <Stack
        gap="md"
        data-testid={mode === 'register' ? 'register-patient-dialog' : 'reception-booking-dialog'}
      >
        <Text size="sm" className={classes.when} data-testid="reception-booking-when">
          {when}
        </Text>
        {mode === 'register' ? (
          <RegisterPatientForm
            onCancel={() => setMode('find')}
            onRegistered={(registered) => {
              setPatient(registered);
              setInvitedTo(registered.email);
              setMode('find');
            }}
          />
        ) : (
          <>
            {patient === null ? (
              <PatientFinder onPick={setPatient} onRegister={() => setMode('register')} />
            ) : (
              <div className={classes.chosen} data-testid="reception-booking-patient">
                <div>
                  <Text fw={650}>{patient.name}</Text>
                  <Text size="sm" c="gray.7">
                    {describePatient(patient, clock.language, (date) => t('agenda.booking.born', { date }))}
                  </Text>
                </div>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => {
                    setPatient(null);
                    setInvitedTo(null);
                  }}
                >
                  {t('agenda.booking.changePatient')}
                </Button>
              </div>
            )}
            {invitedTo !== null ? (
              <Alert
                color="teal"
                variant="light"
                icon={<IconMailForward />}
                data-testid="reception-booking-invited"
              >
                {t('agenda.register.invited', { email: invitedTo })}
              </Alert>
            ) : null}
            <form onSubmit={(event) => void handleSubmit(event)} noValidate>
              <Stack gap="md">
                <Textarea
                  {...form.register('reason')}
                  label={t('agenda.booking.reason')}
                  description={t('agenda.booking.reasonHint')}
                  minRows={3}
                  required
                  error={fieldErrorText(form.formState.errors.reason?.message)}
                  data-testid="reception-booking-reason"
                />
                {book.error ? (
                  <Alert
                    color="red"
                    variant="light"
                    icon={<IconAlertTriangle />}
                    role="alert"
                    data-testid="reception-booking-error"
                  >
                    {errorText(book.error)}
                  </Alert>
                ) : null}
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" onClick={onClose} disabled={book.isPending}>
                    {t('common.cancel')}
                  </Button>
                  <Button
                    type="submit"
                    disabled={patient === null}
                    loading={book.isPending}
                    data-testid="reception-booking-confirm"
                  >
                    {t('agenda.booking.confirm')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        )}
      </Stack>
    </AppModal>
  );
}

/** "55 1234 5678 · nacida el 7 mar 1985 · ana@…": what tells two people of one name apart. */
function describePatient(patient: PatientMatch, language: string, born: (date: string) => string): string {
  const parts = [
    patient.phone,
    patient.dateOfBirth
      ? born(formatCalendarDate(patient.dateOfBirth, language, { dateStyle: 'medium' }))
      : null,
    patient.email,
  ];
  return parts.filter((part): part is string => part !== null && part !== '').join(' · ');
}

function PatientFinder({
  onPick,
  onRegister,
}: {
  onPick: (patient: PatientMatch) => void;
  onRegister: () => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const errorText = useApiErrorText();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, 250);
  const lookup = usePatientLookup(debounced);
  const resultsId = useId();
  const hasQuery = debounced.trim().length >= 2;
  const matches = hasQuery ? (lookup.data ?? []) : [];
  return (
    <Stack gap="xs">
      <TextInput
        label={t('agenda.booking.findPatient')}
        description={t('agenda.booking.findPatientHint')}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={lookup.isFetching ? <Loader size="xs" /> : null}
        aria-controls={resultsId}
        autoComplete="off"
        data-autofocus
        data-testid="reception-booking-search"
      />
      <div id={resultsId} aria-live="polite">
        {lookup.isError ? (
          <Text size="sm" c="red.8">
            {errorText(lookup.error)}
          </Text>
        ) : hasQuery && lookup.isSuccess && matches.length === 0 ? (
          <Text size="sm" c="gray.7" data-testid="reception-booking-no-match">
            {t('agenda.booking.noMatch')}
          </Text>
        ) : matches.length > 0 ? (
          <ul className={classes.matches} aria-label={t('agenda.booking.matches')}>
            {matches.map((match) => (
              <li key={match.id}>
                <button
                  type="button"
                  className={classes.match}
                  onClick={() => onPick(match)}
                  data-testid="reception-booking-match"
                >
                  <span className={classes.matchName}>{match.name}</span>
                  <span className={classes.matchDetails}>
                    {describePatient(match, clock.language, (date) => t('agenda.booking.born', { date }))}
                  </span>
                  {!match.hasSignedUp ? (
                    <span className={classes.matchDetails}>{t('agenda.booking.notSignedUp')}</span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <Group gap="xs">
        <Text size="sm" c="gray.7">
          {t('agenda.booking.newPatientQuestion')}
        </Text>
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconUserPlus size={16} />}
          onClick={onRegister}
          data-testid="reception-booking-register"
        >
          {t('agenda.booking.registerPatient')}
        </Button>
      </Group>
    </Stack>
  );
}
