import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import {
  isLanguageCode,
  languageCodes,
  maxBioLength,
  maxDoctorLanguages,
  maxDoctorSpecialties,
  updateDoctorProfileRequestSchema,
  type DoctorProfile,
  type UpdateDoctorProfileRequest,
} from '@telemedicina/shared/doctors';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useFieldErrorText } from '../../../lib/form-errors';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useSpecialtyOptions } from '../api/get-specialty-options';
import { useVisitLengths } from '../api/get-visit-lengths';
import { useUpdateDoctorProfile } from '../api/update-doctor-profile';
import { languageName } from '../language-name';
import classes from './Schedule.module.css';

export interface ProfileDraft {
  specialtyIds: string[];
  licenseNumber: string;
  languages: string[];
  bioEs: string;
  bioEn: string;
  visitMinutes: string;
  acceptsNewPatients: boolean;
}

type DraftField = keyof ProfileDraft;

export function draftOf(profile: DoctorProfile | null): ProfileDraft {
  return {
    specialtyIds: profile?.specialties.map((specialty) => specialty.id) ?? [],
    licenseNumber: profile?.licenseNumber ?? '',
    languages: profile?.languages ?? [],
    bioEs: profile?.bio.es ?? '',
    bioEn: profile?.bio.en ?? '',
    visitMinutes: profile ? String(profile.visitMinutes) : '',
    acceptsNewPatients: profile?.acceptsNewPatients ?? true,
  };
}

/**
 * The `PATCH /doctors/:id` body of a draft: everything the form shows; the license number only for
 * those who may change it (`doctors.manage`), the visit length only once chosen.
 */
export function toProfileRequest(draft: ProfileDraft, canChangeLicense: boolean): UpdateDoctorProfileRequest {
  return {
    ...(canChangeLicense ? { licenseNumber: draft.licenseNumber.trim() } : {}),
    languages: draft.languages.filter(isLanguageCode),
    bio: { es: draft.bioEs, en: draft.bioEn },
    ...(draft.visitMinutes === '' ? {} : { visitMinutes: Number(draft.visitMinutes) }),
    acceptsNewPatients: draft.acceptsNewPatients,
    specialtyIds: draft.specialtyIds,
  };
}

/** A request or answer field path (`bio.es`, `specialtyIds.2`) as the form field it belongs to. */
export function fieldOfPath(path: string): DraftField | null {
  const [head = '', next] = path.split('.');
  if (head === 'bio') {
    return next === 'en' ? 'bioEn' : 'bioEs';
  }
  const fields: readonly DraftField[] = [
    'specialtyIds',
    'licenseNumber',
    'languages',
    'visitMinutes',
    'acceptsNewPatients',
  ];
  return fields.find((field) => field === head) ?? null;
}

export interface ProfilePanelProps {
  doctorId: string;
  /** Null when the doctor has no profile yet (an administrator creates it with the license number). */
  profile: DoctorProfile | null;
}

/** The doctor's profile form: specialties, license, languages, biographies, visit length, new patients. */
export function ProfilePanel({ doctorId, profile }: ProfilePanelProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const fieldErrorText = useFieldErrorText();
  const canChangeLicense = useHasAnyPermission(['doctors.manage']);
  const update = useUpdateDoctorProfile(doctorId);
  const specialties = useSpecialtyOptions(language);
  const visitLengths = useVisitLengths();
  const [initial, setInitial] = useState(() => draftOf(profile));
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<DraftField, string>>>({});
  const [isSaved, setIsSaved] = useState(false);
  const isDirty = JSON.stringify(draft) !== JSON.stringify(initial);

  const languageChoices = useMemo(
    () =>
      languageCodes
        .map((code) => ({ value: code, label: languageName(code, language) }))
        .sort((a, b) => a.label.localeCompare(b.label, language)),
    [language],
  );
  const specialtyChoices = useMemo(() => {
    const choices = (specialties.data ?? []).map((specialty) => ({
      value: specialty.id,
      label: specialty.name[language],
    }));
    for (const specialty of profile?.specialties ?? []) {
      if (!choices.some((choice) => choice.value === specialty.id)) {
        choices.push({ value: specialty.id, label: specialty.name[language] });
      }
    }
    return choices;
  }, [specialties.data, profile, language]);
  const lengths = [...new Set([...visitLengths, ...(profile ? [profile.visitMinutes] : [])])].sort(
    (a, b) => a - b,
  );

  const set = <K extends DraftField>(key: K, value: ProfileDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
    setIsSaved(false);
  };

  const handleSave = async () => {
    const request = toProfileRequest(draft, canChangeLicense);
    const parsed = updateDoctorProfileRequestSchema.safeParse(request);
    if (!parsed.success) {
      const next: Partial<Record<DraftField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = fieldOfPath(issue.path.join('.'));
        if (field && !next[field]) {
          next[field] = fieldErrorText(issue.message);
        }
      }
      setErrors(next);
      return;
    }
    try {
      const saved = await update.mutateAsync(parsed.data);
      const next = draftOf(saved);
      setInitial(next);
      setDraft(next);
      setErrors({});
      setIsSaved(true);
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) {
        const next: Partial<Record<DraftField, string>> = {};
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          const field = fieldOfPath(path);
          if (field && !next[field]) {
            next[field] = fieldErrorText(message);
          }
        }
        if (Object.keys(next).length > 0) {
          setErrors(next);
          return;
        }
      }
      publishApiErrorAlert(error);
    }
  };

  return (
    <Stack gap="lg" data-testid="schedule-profile">
      {profile === null ? (
        <Alert color="blue" variant="light" data-testid="schedule-profile-new">
          {t('schedule.profile.createHint')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <MultiSelect
          label={t('schedule.profile.specialties')}
          description={t('schedule.profile.specialtiesHint', { count: maxDoctorSpecialties })}
          data={specialtyChoices}
          value={draft.specialtyIds}
          onChange={(value) => set('specialtyIds', value)}
          maxValues={maxDoctorSpecialties}
          searchable
          nothingFoundMessage={t('schedule.profile.noMatches')}
          error={errors.specialtyIds}
          comboboxProps={{ withinPortal: true }}
          data-testid="schedule-profile-specialties"
        />
        <MultiSelect
          label={t('schedule.profile.languages')}
          description={t('schedule.profile.languagesHint')}
          data={languageChoices}
          value={draft.languages}
          onChange={(value) => set('languages', value)}
          maxValues={maxDoctorLanguages}
          searchable
          nothingFoundMessage={t('schedule.profile.noMatches')}
          error={errors.languages}
          comboboxProps={{ withinPortal: true }}
          data-testid="schedule-profile-languages"
        />
        <TextInput
          label={t('schedule.profile.license')}
          description={
            canChangeLicense ? t('schedule.profile.licenseHint') : t('schedule.profile.licenseLocked')
          }
          value={draft.licenseNumber}
          onChange={(event) => set('licenseNumber', event.currentTarget.value)}
          disabled={!canChangeLicense}
          required={canChangeLicense}
          maxLength={40}
          error={errors.licenseNumber}
          data-testid="schedule-profile-license"
        />
        <NativeSelect
          label={t('schedule.profile.visitLength')}
          description={t('schedule.profile.visitLengthHint')}
          value={draft.visitMinutes}
          onChange={(event) => set('visitMinutes', event.currentTarget.value)}
          data={[
            ...(draft.visitMinutes === ''
              ? [{ value: '', label: t('schedule.profile.visitLengthDefault') }]
              : []),
            ...lengths.map((minutes) => ({
              value: String(minutes),
              label: t('schedule.profile.minutes', { count: minutes }),
            })),
          ]}
          error={errors.visitMinutes}
          data-testid="schedule-profile-visit"
        />
      </SimpleGrid>
      <Switch
        label={t('schedule.profile.acceptsNewPatients')}
        description={t('schedule.profile.acceptsNewPatientsHint')}
        checked={draft.acceptsNewPatients}
        onChange={(event) => set('acceptsNewPatients', event.currentTarget.checked)}
        data-testid="schedule-profile-accepting"
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {(['bioEs', 'bioEn'] as const).map((field) => (
          <Textarea
            key={field}
            label={t(field === 'bioEs' ? 'schedule.profile.bioEs' : 'schedule.profile.bioEn')}
            description={t('schedule.profile.bioHint', {
              count: draft[field].length,
              max: maxBioLength,
            })}
            value={draft[field]}
            onChange={(event) => set(field, event.currentTarget.value)}
            autosize
            minRows={5}
            maxRows={14}
            maxLength={maxBioLength}
            error={errors[field]}
            lang={field === 'bioEs' ? 'es' : 'en'}
            data-testid={field === 'bioEs' ? 'schedule-profile-bio-es' : 'schedule-profile-bio-en'}
          />
        ))}
      </SimpleGrid>
      <div className={classes.saveBar}>
        <span />
        <Group gap="sm">
          {isSaved && !isDirty ? (
            <Text size="sm" c="teal.8" data-testid="schedule-profile-saved">
              {t('schedule.saved')}
            </Text>
          ) : null}
          <Button
            variant="default"
            disabled={!isDirty || update.isPending}
            onClick={() => {
              setDraft(initial);
              setErrors({});
            }}
          >
            {t('schedule.discard')}
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            disabled={!isDirty && profile !== null}
            loading={update.isPending}
            onClick={() => void handleSave()}
            data-testid="schedule-profile-save"
          >
            {t('schedule.profile.save')}
          </Button>
        </Group>
      </div>
    </Stack>
  );
}
