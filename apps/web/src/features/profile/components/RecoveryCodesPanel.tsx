import { Alert, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Profile.module.css';

/**
 * Recovery codes, shown once: the server keeps only their hashes, so this is the only time they
 * exist in readable form. Copy and download help save them; "Done" is enabled once the person
 * confirms they did, and then the codes leave the page for good.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: 2000 });
  const [isSaved, setIsSaved] = useState(false);
  const text = codes.join('\n');

  const handleDownload = () => {
    const url = URL.createObjectURL(
      new Blob([`${t('profile.mfa.codes.fileHeader')}\n\n${text}\n`], { type: 'text/plain' }),
    );
    const link = document.createElement('a');
    link.href = url;
    link.download = 'telemedicina-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Stack gap="md" data-testid="mfa-recovery-panel">
      <Alert color="orange" variant="light" icon={<IconAlertTriangle />} title={t('profile.mfa.codes.title')}>
        {t('profile.mfa.codes.text')}
      </Alert>
      <ol
        className={classes.codes}
        data-testid="mfa-recovery-codes"
        aria-label={t('profile.mfa.codes.title')}
      >
        {codes.map((code) => (
          <li key={code} data-testid="mfa-recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={clipboard.copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
          onClick={() => clipboard.copy(text)}
          data-testid="mfa-recovery-copy"
        >
          {clipboard.copied ? t('profile.mfa.codes.copied') : t('profile.mfa.codes.copy')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={18} />}
          onClick={handleDownload}
          data-testid="mfa-recovery-download"
        >
          {t('profile.mfa.codes.download')}
        </Button>
      </Group>
      <Checkbox
        checked={isSaved}
        onChange={(event) => setIsSaved(event.currentTarget.checked)}
        label={t('profile.mfa.codes.confirm')}
        data-testid="mfa-recovery-saved"
      />
      <Group justify="flex-end">
        <Button disabled={!isSaved} onClick={onDone} data-testid="mfa-recovery-done">
          {t('profile.mfa.codes.done')}
        </Button>
      </Group>
      <Text size="xs" c="gray.7">
        {t('profile.mfa.codes.usage')}
      </Text>
    </Stack>
  );
}
