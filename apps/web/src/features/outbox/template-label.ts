import { useTranslation } from 'react-i18next';

/**
 * The words for an email's template (`outbox.templates.<name>`): every template the server renders
 * (the shared `emailTemplates`) has one in both languages (template-label.test.ts); a message from
 * another server version shows its code rather than nothing.
 */
export function useTemplateLabel(): (template: string) => string {
  const { t, i18n } = useTranslation();
  return (template) => {
    const key = `outbox.templates.${template}`;
    return i18n.exists(key) ? t(key as 'outbox.templates.invitation') : template;
  };
}
