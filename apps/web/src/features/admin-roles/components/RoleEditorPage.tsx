import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCircleCheck,
  IconDeviceFloppy,
  IconInfoCircle,
  IconLock,
  IconTrash,
} from '@tabler/icons-react';
import { localizedNameSchema, rolePermissionsSchema, type Role } from '@telemedicina/shared/admin';
import {
  permissionAreas,
  permissionCatalogue,
  permissions as allPermissions,
  type Permission,
  type PermissionArea,
} from '@telemedicina/shared/permission-catalogue';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useDeleteRole } from '../api/delete-role';
import { useRole } from '../api/get-role';
import { useUpdateRole } from '../api/update-role';
import classes from './Roles.module.css';

/** The catalogue's permissions of each area, in catalogue order. */
const permissionsByArea: Record<PermissionArea, Permission[]> = Object.fromEntries(
  permissionAreas.map((area) => [
    area,
    allPermissions.filter((name) => permissionCatalogue[name].area === area),
  ]),
) as Record<PermissionArea, Permission[]>;

/** Custom roles: names checked like the server does. */
const editableSchema = z.object({ name: localizedNameSchema, permissions: rolePermissionsSchema });
/** System roles keep their names, so only the grants are checked. */
const lockedNamesSchema = z.object({
  name: z.object({ es: z.string(), en: z.string() }),
  permissions: rolePermissionsSchema,
});

/**
 * `/admin/roles/:id`: a role's names in both languages and its grants, the permission catalogue
 * grouped by area with each permission described in the reader's language. System roles keep their
 * names; the administrator role's grants are fixed. Delete is offered for custom roles.
 */
export function RoleEditorPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['roles.manage']);
  return (
    <div className={pageClasses.page} data-testid="role-editor-page">
      <Link to="/admin/roles" className={classes.back} data-testid="role-back">
        <IconArrowLeft size={16} aria-hidden />
        {t('roles.editor.back')}
      </Link>
      {isAllowed ? (
        <RoleLoader />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.roles')} description={t('admin.sections.roles')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function RoleLoader() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const { id = '' } = useParams();
  const result = useRole(id);
  if (result.isPending) {
    return (
      <Stack gap="md" aria-busy="true" data-testid="role-loading">
        <Skeleton height={36} width="40%" radius="md" />
        <Skeleton height={160} radius="lg" />
        <Skeleton height={320} radius="lg" />
      </Stack>
    );
  }
  if (result.isError) {
    const isNotFound = result.error instanceof ApiError && result.error.status === 404;
    return (
      <Alert
        color={isNotFound ? 'gray' : 'red'}
        variant="light"
        title={isNotFound ? t('roles.editor.notFoundTitle') : undefined}
        data-testid={isNotFound ? 'role-not-found' : 'role-error'}
      >
        <Stack gap="sm" align="flex-start">
          {isNotFound ? t('roles.editor.notFound') : errorText(result.error)}
          <Button component={Link} to="/admin/roles" variant="default" size="xs">
            {t('roles.editor.back')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <RoleEditor key={result.data.id} role={result.data} />;
}

interface EditorValues {
  name: { es: string; en: string };
  permissions: string[];
}

function RoleEditor({ role }: { role: Role }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const fieldErrorText = useFieldErrorText();
  const errorText = useApiErrorText();
  const update = useUpdateRole(role.id);
  const remove = useDeleteRole(role.id);
  const [isSaved, setIsSaved] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  const isAdminRole = role.system && role.key === 'admin';
  const areNamesLocked = role.system;
  const areGrantsLocked = isAdminRole;
  const format = new Intl.NumberFormat(language);

  const form = useForm<EditorValues>({
    resolver: zodResolver(areNamesLocked ? lockedNamesSchema : editableSchema),
    defaultValues: { name: role.name, permissions: role.permissions },
  });
  const { errors, isDirty } = form.formState;
  const chosen = useWatch({ control: form.control, name: 'permissions' });

  // Leaving with unsaved changes asks first (saving or deleting is not "leaving with changes").
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && !update.isPending && !remove.isPending && currentLocation.pathname !== nextLocation.pathname,
  );

  const setChosen = (next: string[]) => {
    setIsSaved(false);
    form.setValue('permissions', next, { shouldDirty: true });
  };
  const togglePermission = (name: string, isChecked: boolean) =>
    setChosen(isChecked ? [...chosen, name] : chosen.filter((candidate) => candidate !== name));
  const toggleArea = (area: PermissionArea, isChecked: boolean) => {
    const names = permissionsByArea[area];
    setChosen(
      isChecked
        ? [...chosen, ...names.filter((name) => !chosen.includes(name))]
        : chosen.filter((candidate) => !(names as string[]).includes(candidate)),
    );
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    setIsSaved(false);
    try {
      const saved = await update.mutateAsync({
        ...(areNamesLocked ? {} : { name: values.name }),
        ...(areGrantsLocked ? {} : { permissions: values.permissions }),
      });
      form.reset({ name: saved.name, permissions: saved.permissions });
      setIsSaved(true);
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, ['name.es', 'name.en', 'permissions'])) {
        if (!(error instanceof ApiError && error.code === 'SYSTEM_ROLE_LOCKED')) {
          publishApiErrorAlert(error);
        }
      }
    }
  });

  const handleDelete = async () => {
    try {
      await remove.mutateAsync();
      setIsDeleteOpen(false);
      void navigate('/admin/roles', { replace: true });
    } catch {
      // Explained in the dialog from remove.error.
    }
  };

  const deleteError = remove.error instanceof ApiError ? remove.error : null;
  const deleteErrorText =
    deleteError?.code === 'ROLE_IN_USE'
      ? t('roles.delete.inUse', { number: format.format(role.userCount) })
      : deleteError?.code === 'SYSTEM_ROLE_LOCKED'
        ? t('roles.delete.system')
        : remove.error
          ? errorText(remove.error)
          : null;
  const updateLocked = update.error instanceof ApiError && update.error.code === 'SYSTEM_ROLE_LOCKED';

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="role-editor">
      <SectionHeader title={role.name[language]} description={t('roles.editor.description')}>
        <Group gap={6}>
          <Badge
            size="lg"
            variant="outline"
            color="gray"
            tt="none"
            className={classes.key}
            data-testid="role-key"
          >
            {role.key}
          </Badge>
          {role.system ? (
            <Badge size="lg" variant="light" color="gray" tt="none">
              {t('roles.system')}
            </Badge>
          ) : null}
          <Badge size="lg" variant="light" color="clinic" tt="none" data-testid="role-user-count">
            {t('roles.editor.userCount', { number: format.format(role.userCount) })}
          </Badge>
        </Group>
      </SectionHeader>

      <Stack gap="lg">
        <Paper withBorder radius="lg" className={classes.card} data-testid="role-names">
          <Stack gap="md">
            <Title order={2} size="h4">
              {t('roles.editor.names')}
            </Title>
            {areNamesLocked ? (
              <Alert color="gray" variant="light" icon={<IconLock />} data-testid="role-names-locked">
                {t('roles.editor.systemNames')}
              </Alert>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                {...form.register('name.es')}
                label={t('roles.fields.nameEs')}
                lang="es"
                readOnly={areNamesLocked}
                variant={areNamesLocked ? 'filled' : 'default'}
                required={!areNamesLocked}
                error={fieldErrorText(errors.name?.es?.message)}
                data-testid="role-name-es"
              />
              <TextInput
                {...form.register('name.en')}
                label={t('roles.fields.nameEn')}
                lang="en"
                readOnly={areNamesLocked}
                variant={areNamesLocked ? 'filled' : 'default'}
                required={!areNamesLocked}
                error={fieldErrorText(errors.name?.en?.message)}
                data-testid="role-name-en"
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Paper withBorder radius="lg" className={classes.card} data-testid="role-permissions">
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={2} size="h4">
                {t('roles.editor.permissions')}
              </Title>
              <Text size="sm" c="gray.7">
                {t('roles.editor.permissionsHint', {
                  number: format.format(chosen.filter((name) => name in permissionCatalogue).length),
                  total: format.format(allPermissions.length),
                })}
              </Text>
            </Stack>
            {areGrantsLocked ? (
              <Alert color="gray" variant="light" icon={<IconLock />} data-testid="role-grants-locked">
                {t('roles.editor.adminLocked')}
              </Alert>
            ) : null}
            {errors.permissions?.message ? (
              <Alert color="red" variant="light">
                {fieldErrorText(errors.permissions.message)}
              </Alert>
            ) : null}
            <Controller
              control={form.control}
              name="permissions"
              render={() => (
                <Stack gap="xl">
                  {permissionAreas.map((area) => {
                    const names = permissionsByArea[area];
                    const count = names.filter((name) => chosen.includes(name)).length;
                    return (
                      <div
                        key={area}
                        role="group"
                        aria-labelledby={`role-area-title-${area}`}
                        className={classes.area}
                        data-testid={`role-area-${area}`}
                      >
                        <div className={classes.areaHeader}>
                          <h3 id={`role-area-title-${area}`} className={classes.areaTitle}>
                            {t(`roles.areas.${area}`)}
                          </h3>
                          <Checkbox
                            size="xs"
                            label={t('roles.editor.selectAll')}
                            checked={count === names.length}
                            indeterminate={count > 0 && count < names.length}
                            onChange={(event) => toggleArea(area, event.currentTarget.checked)}
                            disabled={areGrantsLocked}
                            aria-label={t('roles.editor.selectAllIn', { area: t(`roles.areas.${area}`) })}
                            data-testid={`role-area-all-${area}`}
                          />
                        </div>
                        <div className={classes.permissions}>
                          {names.map((name) => (
                            <Checkbox
                              key={name}
                              checked={chosen.includes(name)}
                              onChange={(event) => togglePermission(name, event.currentTarget.checked)}
                              disabled={areGrantsLocked}
                              label={permissionCatalogue[name][language]}
                              description={<span className={classes.permissionName}>{name}</span>}
                              data-testid={`role-permission-${name}`}
                            />
                          ))}
                        </div>
                      </div>
                    );
                  })}
                </Stack>
              )}
            />
          </Stack>
        </Paper>

        {updateLocked ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} data-testid="role-save-error">
            {t('errors.codes.SYSTEM_ROLE_LOCKED')}
          </Alert>
        ) : null}
        {isSaved && !isDirty ? (
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck />}
            role="status"
            data-testid="role-saved"
          >
            {t('roles.editor.saved')}
          </Alert>
        ) : null}

        <div className={classes.saveBar}>
          {role.system ? (
            <Group gap={6} wrap="nowrap">
              <IconInfoCircle size={18} color="var(--mantine-color-gray-6)" aria-hidden />
              <Text size="xs" c="gray.7">
                {t('roles.delete.systemHint')}
              </Text>
            </Group>
          ) : (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={18} />}
              onClick={() => {
                remove.reset();
                setIsDeleteOpen(true);
              }}
              data-testid="role-delete"
            >
              {t('roles.delete.button')}
            </Button>
          )}
          {areGrantsLocked && areNamesLocked ? null : (
            <Button
              type="submit"
              loading={update.isPending}
              disabled={!isDirty}
              leftSection={<IconDeviceFloppy size={18} />}
              data-testid="role-save"
            >
              {t('common.save')}
            </Button>
          )}
        </div>
      </Stack>

      <ConfirmDialog
        opened={isDeleteOpen}
        title={t('roles.delete.title')}
        confirmLabel={t('roles.delete.confirm')}
        isDestructive
        isPending={remove.isPending}
        error={deleteErrorText}
        onConfirm={() => void handleDelete()}
        onCancel={() => setIsDeleteOpen(false)}
        testId="role-delete-dialog"
      >
        {t('roles.delete.text', { name: role.name[language] })}
      </ConfirmDialog>
      <ConfirmDialog
        opened={blocker.state === 'blocked'}
        title={t('roles.editor.leaveTitle')}
        confirmLabel={t('roles.editor.leaveConfirm')}
        isDestructive
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
        testId="role-leave-dialog"
      >
        {t('roles.editor.leaveText')}
      </ConfirmDialog>
    </form>
  );
}
