import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy, IconPlus, IconTrash } from '@tabler/icons-react';
import { localizedNameSchema, type Specialty } from '@telemedicina/shared/admin';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useLanguage } from '../../../lib/ui-state';
import { useCreateSpecialty } from '../api/create-specialty';
import { useDeleteSpecialty } from '../api/delete-specialty';
import { useUpdateSpecialty } from '../api/update-specialty';

const specialtyFormSchema = z.object({ name: localizedNameSchema, active: z.boolean() });
type SpecialtyForm = z.infer<typeof specialtyFormSchema>;

/** Set on a name field another specialty already uses (409 ALREADY_EXISTS, `details.fields`). */
const nameTakenKey = 'specialties.form.nameTaken';

function takenFields(error: unknown): ('name.es' | 'name.en')[] {
  if (!(error instanceof ApiError) || error.code !== 'ALREADY_EXISTS') {
    return [];
  }
  const fields = (error.details as { fields?: unknown } | undefined)?.fields;
  const named = Array.isArray(fields)
    ? fields.filter((field): field is 'name.es' | 'name.en' => field === 'name.es' || field === 'name.en')
    : [];
  return named.length > 0 ? named : ['name.es', 'name.en'];
}

export interface SpecialtyModalProps {
  opened: boolean;
  /** The specialty to edit, or null to create one. */
  specialty: Specialty | null;
  onClose: () => void;
}

/**
 * Creates or edits a specialty: both names and the active switch. Editing also offers deletion,
 * confirmed in place; a specialty doctors still have cannot be deleted, and the dialog offers to
 * deactivate it instead in one click.
 */
export function SpecialtyModal({ opened, specialty, onClose }: SpecialtyModalProps) {
  // The dialog keeps showing the last specialty while it fades out after the address lost `?edit=`,
  // and starts afresh (form, confirmation, errors) each time it opens.
  const [shown, setShown] = useState<Specialty | null>(specialty);
  const [openCount, setOpenCount] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  if (specialty !== null && specialty !== shown) {
    setShown(specialty);
  }
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setOpenCount((count) => count + 1);
    }
  }
  const current = opened ? specialty : shown;
  return (
    <SpecialtyDialog
      key={`${current?.id ?? 'new'}-${openCount}`}
      opened={opened}
      specialty={current}
      onClose={onClose}
    />
  );
}

function SpecialtyDialog({ opened, specialty, onClose }: SpecialtyModalProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const fieldErrorText = useFieldErrorText();
  const errorText = useApiErrorText();
  const create = useCreateSpecialty();
  const update = useUpdateSpecialty();
  const remove = useDeleteSpecialty();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const isEditing = specialty !== null;
  const form = useForm<SpecialtyForm>({
    resolver: zodResolver(specialtyFormSchema),
    defaultValues: specialty
      ? { name: { es: specialty.name.es, en: specialty.name.en }, active: specialty.active }
      : { name: { es: '', en: '' }, active: true },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      if (specialty) {
        await update.mutateAsync({ id: specialty.id, body: values });
      } else {
        await create.mutateAsync(values);
      }
      onClose();
    } catch (error) {
      const taken = takenFields(error);
      if (taken.length > 0) {
        taken.forEach((field, index) =>
          form.setError(field, { type: 'server', message: nameTakenKey }, { shouldFocus: index === 0 }),
        );
        return;
      }
      if (!applyServerFieldErrors(error, form.setError, ['name.es', 'name.en', 'active'])) {
        publishApiErrorAlert(error);
      }
    }
  });

  const handleDelete = async () => {
    if (!specialty) {
      return;
    }
    try {
      await remove.mutateAsync(specialty.id);
      onClose();
    } catch {
      // Explained below from remove.error.
    }
  };

  const handleDeactivate = async () => {
    if (!specialty) {
      return;
    }
    try {
      await update.mutateAsync({ id: specialty.id, body: { active: false } });
      onClose();
    } catch (error) {
      publishApiErrorAlert(error);
    }
  };

  const nameError = (message: string | undefined) =>
    message === nameTakenKey ? t(nameTakenKey) : fieldErrorText(message);
  const isInUse = remove.error instanceof ApiError && remove.error.code === 'SPECIALTY_IN_USE';
  const isSaving = create.isPending || update.isPending;
  const title = isConfirmingDelete
    ? t('specialties.delete.title')
    : isEditing
      ? t('specialties.form.editTitle')
      : t('specialties.form.createTitle');

  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      isStatic={form.formState.isDirty || isConfirmingDelete}
      title={<Text fw={650}>{title}</Text>}
      size="lg"
    >
      {isConfirmingDelete && specialty ? (
        <Stack gap="md" data-testid="specialty-delete-confirm">
          <Text size="sm">{t('specialties.delete.text', { name: specialty.name[language] })}</Text>
          {remove.error ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle />}
              data-testid="specialty-delete-error"
            >
              <Stack gap="xs" align="flex-start">
                <Text size="sm">
                  {isInUse
                    ? t('specialties.delete.inUse', {
                        number: new Intl.NumberFormat(language).format(specialty.doctorCount),
                      })
                    : errorText(remove.error)}
                </Text>
                {isInUse && specialty.active ? (
                  <Button
                    size="xs"
                    variant="default"
                    loading={update.isPending}
                    onClick={() => void handleDeactivate()}
                    data-testid="specialty-deactivate-instead"
                  >
                    {t('specialties.delete.deactivate')}
                  </Button>
                ) : null}
              </Stack>
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => {
                remove.reset();
                setIsConfirmingDelete(false);
              }}
              disabled={remove.isPending}
              data-testid="specialty-delete-cancel"
            >
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => void handleDelete()}
              loading={remove.isPending}
              disabled={isInUse}
              data-testid="specialty-delete-confirm-button"
            >
              {t('specialties.delete.confirm')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="specialty-form">
          <Stack gap="md">
            <TextInput
              {...form.register('name.es')}
              label={t('specialties.form.nameEs')}
              lang="es"
              required
              error={nameError(errors.name?.es?.message)}
              data-testid="specialty-name-es"
            />
            <TextInput
              {...form.register('name.en')}
              label={t('specialties.form.nameEn')}
              lang="en"
              required
              error={nameError(errors.name?.en?.message)}
              data-testid="specialty-name-en"
            />
            <Controller
              control={form.control}
              name="active"
              render={({ field }) => (
                <Switch
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  label={t('specialties.form.active')}
                  description={t('specialties.form.activeHint')}
                  data-testid="specialty-active"
                />
              )}
            />
            <Group justify={isEditing ? 'space-between' : 'flex-end'} gap="sm" mt="xs">
              {isEditing ? (
                <Button
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={18} />}
                  onClick={() => {
                    remove.reset();
                    setIsConfirmingDelete(true);
                  }}
                  data-testid="specialty-delete"
                >
                  {t('specialties.delete.button')}
                </Button>
              ) : null}
              <Group gap="sm">
                <Button variant="default" onClick={onClose} disabled={isSaving}>
                  {t('common.cancel')}
                </Button>
                <Button
                  type="submit"
                  loading={isSaving}
                  leftSection={isEditing ? <IconDeviceFloppy size={18} /> : <IconPlus size={18} />}
                  data-testid="specialty-save"
                >
                  {isEditing ? t('common.save') : t('specialties.form.create')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
