import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import {
  createPrescriptionRequestSchema,
  prescriptionMaxItems,
  type PrescriptionItemInput,
} from '@telemedicina/shared/prescriptions';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ParseKeys } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { VisitContextHeader } from '../../../components/patient-context/VisitContextHeader';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useCreatePrescription } from '../api/create-prescription';
import classes from './Prescriptions.module.css';

type ItemDraft = Record<keyof PrescriptionItemInput, string>;
const fields = ['medication', 'dose', 'route', 'frequency', 'duration', 'quantity'] as const;
const maxLengths: Record<keyof ItemDraft, number> = {
  medication: 200,
  dose: 100,
  route: 60,
  frequency: 100,
  duration: 60,
  quantity: 60,
  instructions: 500,
};

const emptyItem = (): ItemDraft => ({
  medication: '',
  dose: '',
  route: '',
  frequency: '',
  duration: '',
  quantity: '',
  instructions: '',
});

/**
 * `/admin/patients/:patientId/prescriptions/new[?appointmentId=]`: a doctor writes a prescription
 * (1–10 medications, each with dose, route, frequency, duration and quantity) checked with the
 * server's own schema, then lands on the new prescription's page.
 */
export function NewPrescriptionPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['prescriptions.write']);
  return (
    <div className={pageClasses.page} data-testid="new-prescription-page">
      <SectionHeader title={t('prescriptions.new.title')} description={t('prescriptions.new.description')} />
      {isAllowed ? <NewPrescriptionForm /> : <SectionForbidden />}
    </div>
  );
}

function NewPrescriptionForm() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const navigate = useNavigate();
  const { patientId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const appointmentId = searchParams.get('appointmentId');
  const create = useCreatePrescription(patientId);
  const [items, setItems] = useState<ItemDraft[]>([emptyItem()]);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const update = (index: number, field: keyof ItemDraft, value: string) => {
    setItems((current) => current.map((item, at) => (at === index ? { ...item, [field]: value } : item)));
    setErrors((current) => {
      const { [`items.${index}.${field}`]: _fixed, ...rest } = current;
      return rest;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = { items, notes, appointmentId: appointmentId ?? undefined };
    const parsed = createPrescriptionRequestSchema.safeParse(request);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        found[issue.path.join('.')] ??= t(issue.message as ParseKeys);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(request, {
      onSuccess: (prescription) => void navigate(`/admin/prescriptions/${prescription.id}`),
    });
  };

  const serverFieldErrors = create.error instanceof ApiError ? create.error.fieldErrors : null;
  const fieldError = (path: string) =>
    errors[path] ?? (serverFieldErrors?.[path] ? t(serverFieldErrors[path] as ParseKeys) : undefined);

  return (
    <form onSubmit={submit} noValidate className={classes.form} data-testid="prescription-form">
      <Stack gap="md">
        <VisitContextHeader appointmentId={appointmentId} patientId={patientId} />
        {appointmentId ? (
          <Text size="sm" c="gray.7" data-testid="prescription-linked-visit">
            {t('prescriptions.new.linkedVisit')}
          </Text>
        ) : null}
        {items.map((item, index) => (
          <Paper
            key={index}
            withBorder
            radius="md"
            p="md"
            className={classes.itemCard}
            data-testid="prescription-item"
          >
            <Group justify="space-between" mb="xs">
              <Title order={2} size="h5">
                {t('prescriptions.new.itemTitle', { number: index + 1 })}
              </Title>
              {items.length > 1 ? (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('prescriptions.new.removeItem', { number: index + 1 })}
                  onClick={() => {
                    setItems((current) => current.filter((_, at) => at !== index));
                    setErrors({});
                  }}
                  data-testid="prescription-item-remove"
                >
                  <IconTrash size={18} />
                </ActionIcon>
              ) : null}
            </Group>
            <div className={classes.itemGrid}>
              {fields.map((field) => (
                <TextInput
                  key={field}
                  className={field === 'medication' ? classes.itemWide : undefined}
                  label={t(`prescriptions.fields.${field}`)}
                  placeholder={t(`prescriptions.placeholders.${field}`)}
                  required
                  maxLength={maxLengths[field]}
                  value={item[field]}
                  onChange={(event) => update(index, field, event.currentTarget.value)}
                  error={fieldError(`items.${index}.${field}`)}
                  data-testid={`prescription-${field}-${index}`}
                />
              ))}
              <Textarea
                className={classes.itemWide}
                label={t('prescriptions.fields.instructions')}
                placeholder={t('prescriptions.placeholders.instructions')}
                autosize
                minRows={2}
                maxLength={maxLengths.instructions}
                value={item.instructions}
                onChange={(event) => update(index, 'instructions', event.currentTarget.value)}
                error={fieldError(`items.${index}.instructions`)}
                data-testid={`prescription-instructions-${index}`}
              />
            </div>
          </Paper>
        ))}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={items.length >= prescriptionMaxItems}
            onClick={() => setItems((current) => [...current, emptyItem()])}
            data-testid="prescription-add-item"
          >
            {t('prescriptions.new.addItem')}
          </Button>
          <Text size="xs" c="gray.7">
            {t('prescriptions.new.itemsLimit', { max: prescriptionMaxItems })}
          </Text>
        </Group>
        {errors.items ? (
          <Text size="sm" c="red">
            {errors.items}
          </Text>
        ) : null}
        <Textarea
          label={t('prescriptions.fields.notes')}
          placeholder={t('prescriptions.placeholders.notes')}
          autosize
          minRows={2}
          maxLength={2000}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
          error={fieldError('notes')}
          data-testid="prescription-notes"
        />
        {create.error && !serverFieldErrors ? (
          <Alert color="red" variant="light" data-testid="prescription-error">
            {errorText(create.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending} data-testid="prescription-submit">
            {t('prescriptions.new.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
