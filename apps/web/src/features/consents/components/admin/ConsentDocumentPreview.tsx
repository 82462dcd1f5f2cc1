import '@mantine/core/styles/Paper.layer.css';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './ConsentAdmin.module.css';

/**
 * The document as the patient reads it before signing (the signing page's heading, version line and
 * text, in the chosen language), with what is typed so far; an empty field says what is missing.
 */
export function ConsentDocumentPreview({
  language,
  version,
  title,
  body,
}: {
  language: 'es' | 'en';
  version: number;
  title: string;
  body: string;
}) {
  const { t, i18n } = useTranslation();
  // The patient's words in the previewed language, whatever the administrator's own: that
  // language's file is fetched once if it is not loaded yet (until then, the administrator's).
  const [isLoaded, setIsLoaded] = useState(() => i18n.hasResourceBundle(language, 'translation'));
  const isReady = isLoaded || i18n.hasResourceBundle(language, 'translation');
  useEffect(() => {
    if (!isReady) {
      void i18n.loadLanguages(language).then(() => setIsLoaded(true));
    }
  }, [i18n, isReady, language]);
  const tp = isReady ? i18n.getFixedT(language) : t;
  return (
    <section aria-label={t('consents.admin.previewLabel')} data-testid="consent-preview" lang={language}>
      <Text size="sm" c="gray.7" mb="xs">
        {t('consents.admin.previewNote')}
      </Text>
      <Paper withBorder radius="md" p="lg" bg="gray.0" className={classes.previewFrame}>
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} size="h3" data-testid="consent-preview-title">
              {title.trim() === '' ? t('consents.admin.previewNoTitle') : title}
            </Title>
            <Text c="gray.7" size="sm">
              {tp('consents.version', { version })} · {tp('consents.readBelow')}
            </Text>
          </Stack>
          <Paper withBorder radius="md" p="lg">
            <Text className={classes.preview} data-testid="consent-preview-body">
              {body.trim() === '' ? t('consents.admin.previewNoBody') : body}
            </Text>
          </Paper>
        </Stack>
      </Paper>
    </section>
  );
}
