import {
  ActionIcon,
  Button,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { iceServerSchema, type ClinicSettings, type IceServer } from '@telemedicina/shared/clinic-settings';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { firstErrorMessage } from './section-errors';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave, useSettingsErrorText } from './use-section-save';
import classes from './ClinicSettings.module.css';

/** The form holds username and credential as text ('' = none); the request leaves empty ones out. */
const iceRowSchema = iceServerSchema.extend({
  urls: z
    .array(iceServerSchema.shape.urls.element)
    .min(1, { message: 'clinicSettings.video.urlsRequired' })
    .max(10, { message: 'clinicSettings.video.urlsTooMany' }),
});
const videoFormSchema = z.object({ iceServers: z.array(iceRowSchema).max(10) });
type VideoForm = z.infer<typeof videoFormSchema>;
interface IceServerRow {
  urls: string[];
  username: string;
  credential: string;
}

const toRow = (server: IceServer): IceServerRow => ({
  urls: [...server.urls],
  username: server.username ?? '',
  credential: server.credential ?? '',
});
const toValues = ({ video }: ClinicSettings) => ({ iceServers: video.iceServers.map(toRow) });

/** Removes empty optional fields and blank URLs before sending. */
export function toIceServers(rows: readonly IceServer[]): IceServer[] {
  return rows.map((row) => ({
    urls: row.urls.map((url) => url.trim()).filter((url) => url !== ''),
    ...(row.username ? { username: row.username } : {}),
    ...(row.credential ? { credential: row.credential } : {}),
  }));
}

/** STUN/TURN servers the video visits use: rows of URLs with an optional username and credential. */
export function VideoSection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const errorText = useSettingsErrorText();
  const form = useForm<z.input<typeof videoFormSchema>, unknown, VideoForm>({
    resolver: zodResolver(videoFormSchema),
    defaultValues: toValues(settings),
  });
  const rows = useFieldArray({ control: form.control, name: 'iceServers' });
  const save = useSectionSave(
    'video',
    form,
    ({ iceServers }) => ({ video: { iceServers: toIceServers(iceServers) } }),
    toValues,
  );
  const { errors } = form.formState;

  return (
    <SettingsSectionCard
      section="video"
      title={t('clinicSettings.video.title')}
      description={t('clinicSettings.video.description')}
      {...save}
    >
      <Stack gap="md">
        {rows.fields.length === 0 ? (
          <Paper withBorder radius="md" p="md" bg="gray.0" data-testid="settings-ice-empty">
            <Text size="sm" c="gray.7">
              {t('clinicSettings.video.empty')}
            </Text>
          </Paper>
        ) : null}
        {rows.fields.map((row, index) => {
          const rowErrors = errors.iceServers?.[index];
          return (
            <Paper
              key={row.id}
              withBorder
              radius="md"
              p="md"
              className={classes.iceRow}
              data-testid="settings-ice-row"
            >
              <Stack gap="sm">
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600} size="sm">
                    {t('clinicSettings.video.server', { number: index + 1 })}
                  </Text>
                  <Tooltip label={t('clinicSettings.video.remove')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => rows.remove(index)}
                      aria-label={t('clinicSettings.video.removeNumbered', { number: index + 1 })}
                      data-testid="settings-ice-remove"
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <Controller
                  control={form.control}
                  name={`iceServers.${index}.urls`}
                  render={({ field }) => (
                    <TagsInput
                      label={t('clinicSettings.video.urls')}
                      description={t('clinicSettings.video.urlsHint')}
                      placeholder={
                        field.value.length === 0 ? t('clinicSettings.video.urlsPlaceholder') : undefined
                      }
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      ref={field.ref}
                      splitChars={[',', ' ']}
                      acceptValueOnBlur
                      clearable={false}
                      maxTags={10}
                      error={errorText(firstErrorMessage(rowErrors?.urls))}
                      data-testid="settings-ice-urls"
                    />
                  )}
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextInput
                    {...form.register(`iceServers.${index}.username`)}
                    label={t('clinicSettings.video.username')}
                    autoComplete="off"
                    error={errorText(rowErrors?.username?.message)}
                    data-testid="settings-ice-username"
                  />
                  <PasswordInput
                    {...form.register(`iceServers.${index}.credential`)}
                    label={t('clinicSettings.video.credential')}
                    autoComplete="new-password"
                    error={errorText(rowErrors?.credential?.message)}
                    data-testid="settings-ice-credential"
                  />
                </SimpleGrid>
              </Stack>
            </Paper>
          );
        })}
        {errors.iceServers?.message || errors.iceServers?.root?.message ? (
          <Text size="xs" c="red.8" role="alert">
            {errorText(errors.iceServers.message ?? errors.iceServers.root?.message)}
          </Text>
        ) : null}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={18} />}
            onClick={() => rows.append({ urls: [], username: '', credential: '' })}
            disabled={rows.fields.length >= 10}
            data-testid="settings-ice-add"
          >
            {t('clinicSettings.video.add')}
          </Button>
        </Group>
      </Stack>
    </SettingsSectionCard>
  );
}
