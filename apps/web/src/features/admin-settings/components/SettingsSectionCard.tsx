import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconDeviceFloppy } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingsSection } from './section-errors';
import classes from './ClinicSettings.module.css';

export interface SettingsSectionCardProps {
  section: SettingsSection;
  title: string;
  description: string;
  children: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  isSaving: boolean;
  isSaved: boolean;
  /** A translated problem with the section as a whole (not tied to one field). */
  formError?: string;
}

/** One section of the settings: its own form, its own save button and its own success notice. */
export function SettingsSectionCard({
  section,
  title,
  description,
  children,
  onSubmit,
  isSaving,
  isSaved,
  formError,
}: SettingsSectionCardProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" className={classes.card} data-testid={`settings-${section}`}>
      <form onSubmit={onSubmit} noValidate aria-labelledby={`settings-${section}-title`}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={2} size="h3" id={`settings-${section}-title`}>
              {title}
            </Title>
            <Text size="sm" c="gray.7">
              {description}
            </Text>
          </Stack>
          {children}
          {formError ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle />}
              data-testid={`settings-${section}-error`}
            >
              {formError}
            </Alert>
          ) : null}
          {isSaved ? (
            <Alert
              color="teal"
              variant="light"
              icon={<IconCircleCheck />}
              role="status"
              data-testid={`settings-${section}-saved`}
            >
              {t('clinicSettings.saved')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={isSaving}
              leftSection={<IconDeviceFloppy size={18} />}
              data-testid={`settings-${section}-save`}
            >
              {t('clinicSettings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
