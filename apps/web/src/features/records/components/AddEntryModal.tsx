import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import {
  allergySeverities,
  conditionStatuses,
  createAllergyRequestSchema,
  createConditionRequestSchema,
  createMedicationRequestSchema,
} from '@telemedicina/shared/records';
import type { ReactNode } from 'react';
import { useForm, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { useAddAllergy } from '../api/add-allergy';
import { useAddCondition } from '../api/add-condition';
import { useAddMedication } from '../api/add-medication';
import { useRecordFieldText } from './use-record-field-text';

export type EntryKind = 'allergy' | 'condition' | 'medication';

export interface AddEntryModalProps {
  patientId: string;
  kind: EntryKind | null;
  onClose: () => void;
}

/** Adds an allergy, a condition (optionally with a catalogue code) or a medication to the chart. */
export function AddEntryModal({ patientId, kind, onClose }: AddEntryModalProps) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={kind !== null}
      onClose={onClose}
      title={<Text fw={650}>{kind ? t(`records.add.${kind}.title`) : ''}</Text>}
      size="lg"
    >
      {kind === 'allergy' ? <AllergyForm patientId={patientId} onDone={onClose} /> : null}
      {kind === 'condition' ? <ConditionForm patientId={patientId} onDone={onClose} /> : null}
      {kind === 'medication' ? <MedicationForm patientId={patientId} onDone={onClose} /> : null}
    </AppModal>
  );
}

function Buttons({ isPending, onCancel }: { isPending: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        {t('records.add.cancel')}
      </Button>
      <Button type="submit" loading={isPending} data-testid="record-entry-save">
        {t('records.add.save')}
      </Button>
    </Group>
  );
}

function FormShell({ children, onSubmit }: { children: ReactNode; onSubmit: () => void }) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="md">{children}</Stack>
    </form>
  );
}

function AllergyForm({ patientId, onDone }: { patientId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const fieldText = useRecordFieldText();
  const add = useAddAllergy(patientId);
  const schema = createAllergyRequestSchema;
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { substance: '', reaction: '', severity: 'unknown' },
  });
  const { errors } = form.formState;
  const handleSubmit = form.handleSubmit(
    saveThen(add.mutateAsync, form.setError, ['substance', 'reaction', 'severity'], onDone),
  );
  return (
    <FormShell onSubmit={() => void handleSubmit()}>
      <TextInput
        label={t('records.fields.substance')}
        required
        data-autofocus
        {...form.register('substance')}
        error={fieldText(errors.substance?.message)}
        data-testid="allergy-substance"
      />
      <TextInput
        label={t('records.fields.reaction')}
        {...form.register('reaction')}
        error={fieldText(errors.reaction?.message)}
      />
      <NativeSelect
        label={t('records.fields.severity')}
        data={allergySeverities.map((value) => ({ value, label: t(`records.severity.${value}`) }))}
        {...form.register('severity')}
        error={fieldText(errors.severity?.message)}
        data-testid="allergy-severity"
      />
      <Buttons isPending={add.isPending} onCancel={onDone} />
    </FormShell>
  );
}

function ConditionForm({ patientId, onDone }: { patientId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const fieldText = useRecordFieldText();
  const add = useAddCondition(patientId);
  const schema = createConditionRequestSchema;
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { description: '', diagnosisCode: '', status: 'active', onsetDate: null },
  });
  const { errors } = form.formState;
  const handleSubmit = form.handleSubmit(
    saveThen(add.mutateAsync, form.setError, ['description', 'diagnosisCode', 'status', 'onsetDate'], onDone),
  );
  return (
    <FormShell onSubmit={() => void handleSubmit()}>
      <TextInput
        label={t('records.fields.description')}
        required
        data-autofocus
        {...form.register('description')}
        error={fieldText(errors.description?.message)}
        data-testid="condition-description"
      />
      <TextInput
        label={t('records.fields.diagnosisCode')}
        description={t('records.fields.diagnosisCodeHint')}
        {...form.register('diagnosisCode')}
        error={fieldText(errors.diagnosisCode?.message)}
        maw={220}
        data-testid="condition-code"
      />
      <NativeSelect
        label={t('records.fields.status')}
        data={conditionStatuses.map((value) => ({ value, label: t(`records.conditionStatus.${value}`) }))}
        {...form.register('status')}
      />
      <TextInput
        type="date"
        label={t('records.fields.onsetDate')}
        {...form.register('onsetDate', { setValueAs: (value: string) => (value === '' ? null : value) })}
        error={fieldText(errors.onsetDate?.message)}
        maw={220}
      />
      <Buttons isPending={add.isPending} onCancel={onDone} />
    </FormShell>
  );
}

function MedicationForm({ patientId, onDone }: { patientId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const fieldText = useRecordFieldText();
  const add = useAddMedication(patientId);
  const schema = createMedicationRequestSchema;
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', dose: '', frequency: '', startedOn: null, stoppedOn: null },
  });
  const { errors } = form.formState;
  const handleSubmit = form.handleSubmit(
    saveThen(add.mutateAsync, form.setError, ['name', 'dose', 'frequency', 'startedOn', 'stoppedOn'], onDone),
  );
  const asDate = { setValueAs: (value: string) => (value === '' ? null : value) };
  return (
    <FormShell onSubmit={() => void handleSubmit()}>
      <TextInput
        label={t('records.fields.medication')}
        required
        data-autofocus
        {...form.register('name')}
        error={fieldText(errors.name?.message)}
        data-testid="medication-name"
      />
      <Group grow align="flex-start">
        <TextInput
          label={t('records.fields.dose')}
          {...form.register('dose')}
          error={fieldText(errors.dose?.message)}
        />
        <TextInput
          label={t('records.fields.frequency')}
          {...form.register('frequency')}
          error={fieldText(errors.frequency?.message)}
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          type="date"
          label={t('records.fields.startedOn')}
          {...form.register('startedOn', asDate)}
          error={fieldText(errors.startedOn?.message)}
        />
        <TextInput
          type="date"
          label={t('records.fields.stoppedOn')}
          {...form.register('stoppedOn', asDate)}
          error={fieldText(errors.stoppedOn?.message)}
        />
      </Group>
      <Buttons isPending={add.isPending} onCancel={onDone} />
    </FormShell>
  );
}

/**
 * The submit of each form: save, then close; a refusal shows on the fields it names, anything else
 * in the message dialog.
 */
function saveThen<T extends FieldValues, V>(
  save: (values: V) => Promise<unknown>,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  onDone: () => void,
): (values: V) => Promise<void> {
  return async (values) => {
    try {
      await save(values);
      onDone();
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, fields)) {
        publishApiErrorAlert(error);
      }
    }
  };
}
