import {
  Collapse,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconAdjustments, IconChevronDown } from '@tabler/icons-react';
import { apiBasePath } from '@telemedicina/shared/api';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Uploader } from '../../../components/uploader/Uploader';
import type { UploadManagerOptions } from '../../../components/uploader/upload-manager';
import { useUploadManager } from '../../../components/uploader/use-upload-manager';

interface UploaderSettings {
  url: string;
  method: string;
  fieldName: string;
  accept: string;
  maxFiles: number | '';
  maxFileSizeMb: number | '';
  concurrency: number | '';
}

const megabyte = 1_000_000;

const initialSettings: UploaderSettings = {
  url: `${apiBasePath}/files`,
  method: 'POST',
  fieldName: 'file',
  accept: 'image/*, application/pdf, .pdf',
  maxFiles: 5,
  maxFileSizeMb: 10,
  concurrency: 2,
};

/** The demo's uploader: its settings and one manager, shared with the cropper demo ("send to uploader"). */
export function useUploaderDemo() {
  const [settings, setSettings] = useState(initialSettings);
  const options = useMemo<UploadManagerOptions>(
    () => ({
      url: settings.url.trim(),
      method: settings.method,
      fieldName: settings.fieldName.trim() || 'file',
      accept: settings.accept
        .split(',')
        .map((rule) => rule.trim())
        .filter((rule) => rule !== ''),
      maxFiles: settings.maxFiles === '' ? undefined : settings.maxFiles,
      maxFileSize: settings.maxFileSizeMb === '' ? undefined : settings.maxFileSizeMb * megabyte,
      concurrency: settings.concurrency === '' ? undefined : settings.concurrency,
    }),
    [settings],
  );
  const { manager, items } = useUploadManager(options);
  return { manager, items, options, settings, setSettings };
}

export function UploaderDemo({ uploader }: { uploader: ReturnType<typeof useUploaderDemo> }) {
  const { t } = useTranslation();
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  const { settings, setSettings } = uploader;
  const update = <K extends keyof UploaderSettings>(key: K, value: UploaderSettings[K]) =>
    setSettings((previous) => ({ ...previous, [key]: value }));
  const toNumber = (value: string | number) => (typeof value === 'number' ? value : '');

  return (
    <Stack gap="md">
      <UnstyledButton
        onClick={() => setIsSettingsOpen((open) => !open)}
        aria-expanded={isSettingsOpen}
        data-testid="uploader-settings-toggle"
      >
        <Group gap={8}>
          <IconAdjustments size={18} aria-hidden />
          <Text size="sm" fw={600}>
            {t('showcase.uploader.settings')}
          </Text>
          <IconChevronDown
            size={16}
            style={{ transform: isSettingsOpen ? 'rotate(180deg)' : undefined }}
            aria-hidden
          />
        </Group>
      </UnstyledButton>
      <Collapse expanded={isSettingsOpen}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('showcase.uploader.url')}
            value={settings.url}
            onChange={(event) => update('url', event.currentTarget.value)}
            data-testid="uploader-setting-url"
          />
          <NativeSelect
            label={t('showcase.uploader.method')}
            data={['POST', 'PUT', 'PATCH']}
            value={settings.method}
            onChange={(event) => update('method', event.currentTarget.value)}
          />
          <TextInput
            label={t('showcase.uploader.fieldName')}
            value={settings.fieldName}
            onChange={(event) => update('fieldName', event.currentTarget.value)}
          />
          <TextInput
            label={t('showcase.uploader.accept')}
            description={t('showcase.uploader.acceptHint')}
            value={settings.accept}
            onChange={(event) => update('accept', event.currentTarget.value)}
            data-testid="uploader-setting-accept"
          />
          <NumberInput
            label={t('showcase.uploader.maxFiles')}
            description={t('showcase.uploader.emptyIsUnlimited')}
            min={1}
            value={settings.maxFiles}
            onChange={(value) => update('maxFiles', toNumber(value))}
            data-testid="uploader-setting-max-files"
          />
          <NumberInput
            label={t('showcase.uploader.maxFileSize')}
            description={t('showcase.uploader.emptyIsUnlimited')}
            min={0.001}
            decimalScale={3}
            value={settings.maxFileSizeMb}
            onChange={(value) => update('maxFileSizeMb', toNumber(value))}
            data-testid="uploader-setting-max-size"
          />
          <NumberInput
            label={t('showcase.uploader.concurrency')}
            description={t('showcase.uploader.emptyIsUnlimited')}
            min={1}
            value={settings.concurrency}
            onChange={(value) => update('concurrency', toNumber(value))}
          />
        </SimpleGrid>
      </Collapse>
      <Uploader manager={uploader.manager} items={uploader.items} options={uploader.options} />
      <Text size="xs" c="gray.7">
        {t('showcase.uploader.destinationNote')}
      </Text>
    </Stack>
  );
}
