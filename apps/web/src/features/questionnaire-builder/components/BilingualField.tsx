import { SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The same words in Spanish and English side by side (two columns on a wide screen, one above the
 * other on a phone), so both are written together.
 */
export function BilingualField({
  label,
  es,
  en,
  onChange,
  disabled = false,
  testId,
}: {
  label: string;
  es: string;
  en: string;
  onChange: (next: { es: string; en: string }) => void;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs" data-testid={testId}>
      <TextInput
        label={t('questionnaireBuilder.inSpanish', { label })}
        value={es}
        disabled={disabled}
        lang="es"
        onChange={(event) => onChange({ es: event.currentTarget.value, en })}
      />
      <TextInput
        label={t('questionnaireBuilder.inEnglish', { label })}
        value={en}
        disabled={disabled}
        lang="en"
        onChange={(event) => onChange({ es, en: event.currentTarget.value })}
      />
    </SimpleGrid>
  );
}
