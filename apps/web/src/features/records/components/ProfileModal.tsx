import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  bloodTypes,
  identityDocumentTypes,
  patientSexes,
  updatePatientProfileRequestSchema,
  type Chart,
  type UpdatePatientProfileRequest,
} from '@telemedicina/shared/records';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useUpdatePatientProfile } from '../api/update-patient-profile';
import { useRecordFieldText } from './use-record-field-text';

export interface ProfileModalProps {
  chart: Chart;
  opened: boolean;
  /** The patient edits only contact details and the emergency contact. */
  isContactOnly: boolean;
  onClose: () => void;
}

type Values = Record<
  | 'name'
  | 'dateOfBirth'
  | 'sex'
  | 'phone'
  | 'address'
  | 'bloodType'
  | 'documentType'
  | 'documentNumber'
  | 'contactName'
  | 'contactPhone'
  | 'contactRelation',
  string
>;

function initialValues(chart: Chart): Values {
  return {
    name: chart.demographics.name,
    dateOfBirth: chart.demographics.dateOfBirth ?? '',
    sex: chart.demographics.sex,
    phone: chart.demographics.phone ?? '',
    address: chart.demographics.address ?? '',
    bloodType: chart.clinical?.bloodType ?? '',
    documentType: chart.identityDocument.type ?? '',
    documentNumber: chart.identityDocument.number ?? '',
    contactName: chart.emergencyContact.name ?? '',
    contactPhone: chart.emergencyContact.phone ?? '',
    contactRelation: chart.emergencyContact.relation ?? '',
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** Edits demographics, identity document and emergency contact (the patient: contact details only). */
export function ProfileModal({ chart, opened, isContactOnly, onClose }: ProfileModalProps) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={<Text fw={650}>{t('records.profile.title')}</Text>}
      size="lg"
    >
      {opened ? <ProfileForm chart={chart} isContactOnly={isContactOnly} onDone={onClose} /> : null}
    </AppModal>
  );
}

function ProfileForm({
  chart,
  isContactOnly,
  onDone,
}: {
  chart: Chart;
  isContactOnly: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const fieldText = useRecordFieldText();
  const update = useUpdatePatientProfile(chart.patientId);
  const [values, setValues] = useState<Values>(() => initialValues(chart));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const field = (key: keyof Values) => ({
    value: values[key],
    onChange: (event: { currentTarget: { value: string } }) => {
      const next = event.currentTarget.value;
      setValues((current) => ({ ...current, [key]: next }));
    },
  });

  const handleSubmit = async () => {
    const contact = {
      emergencyContact: {
        name: orNull(values.contactName),
        phone: orNull(values.contactPhone),
        relation: orNull(values.contactRelation),
      },
      phone: orNull(values.phone),
      address: orNull(values.address),
    };
    const request: UpdatePatientProfileRequest = isContactOnly
      ? contact
      : {
          ...contact,
          name: values.name,
          dateOfBirth: orNull(values.dateOfBirth),
          sex: values.sex as UpdatePatientProfileRequest['sex'],
          bloodType: (orNull(values.bloodType) ?? null) as UpdatePatientProfileRequest['bloodType'],
          identityDocument: {
            type: (orNull(values.documentType) ?? null) as 'passport' | null,
            number: orNull(values.documentNumber),
          },
        };
    const parsed = updatePatientProfileRequestSchema.safeParse(request);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message])),
      );
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync(request);
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) {
        setErrors({ ...error.fieldErrors });
        return;
      }
      publishApiErrorAlert(error);
    }
  };
  const errorOf = (path: string) => fieldText(errors[path]);

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void handleSubmit();
      }}
      data-testid="profile-form"
    >
      <Stack gap="md">
        {isContactOnly ? null : (
          <>
            <TextInput label={t('records.fields.name')} required {...field('name')} error={errorOf('name')} />
            <Group grow align="flex-start">
              <TextInput
                type="date"
                label={t('records.fields.dateOfBirth')}
                {...field('dateOfBirth')}
                error={errorOf('dateOfBirth')}
              />
              <NativeSelect
                label={t('records.fields.sex')}
                data={patientSexes.map((value) => ({ value, label: t(`records.sex.${value}`) }))}
                {...field('sex')}
              />
            </Group>
          </>
        )}
        <Group grow align="flex-start">
          <TextInput label={t('records.fields.phone')} {...field('phone')} error={errorOf('phone')} />
          <TextInput label={t('records.fields.address')} {...field('address')} error={errorOf('address')} />
        </Group>
        {isContactOnly ? null : (
          <Group grow align="flex-start">
            <NativeSelect
              label={t('records.fields.documentType')}
              data={[
                { value: '', label: t('records.none') },
                ...identityDocumentTypes.map((value) => ({
                  value,
                  label: t(`records.documentType.${value}`),
                })),
              ]}
              {...field('documentType')}
            />
            <TextInput
              label={t('records.fields.documentNumber')}
              {...field('documentNumber')}
              error={errorOf('identityDocument.number')}
            />
            <NativeSelect
              label={t('records.fields.bloodType')}
              data={[
                { value: '', label: t('records.none') },
                ...bloodTypes.map((value) => ({ value, label: value })),
              ]}
              {...field('bloodType')}
            />
          </Group>
        )}
        <Title order={3} size="h5">
          {t('records.sections.emergencyContact')}
        </Title>
        <Group grow align="flex-start">
          <TextInput
            label={t('records.fields.contactName')}
            {...field('contactName')}
            error={errorOf('emergencyContact.name')}
            data-testid="profile-contact-name"
          />
          <TextInput
            label={t('records.fields.contactPhone')}
            {...field('contactPhone')}
            error={errorOf('emergencyContact.phone')}
          />
          <TextInput
            label={t('records.fields.contactRelation')}
            {...field('contactRelation')}
            error={errorOf('emergencyContact.relation')}
          />
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {t('records.add.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="profile-save">
            {t('records.add.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
