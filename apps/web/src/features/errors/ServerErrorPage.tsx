import { IconServerBolt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ErrorPage } from './ErrorPage';

/** The `error-500` route: "Error de servidor" with "Intentar de nuevo" (one step back in history). */
export function ServerErrorPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage
      code="500"
      icon={<IconServerBolt size={40} stroke={1.6} />}
      title={t('errors.server.title')}
      description={t('errors.server.description')}
      actionLabel={t('errors.server.action')}
      brandName={t('app.name')}
      testId="server-error-page"
    />
  );
}
