import { IconMapPinOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ErrorPage } from './ErrorPage';

/** Any unknown path: "Sitio no encontrado" with "Ir a un sitio seguro" (one step back in history). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage
      code="404"
      icon={<IconMapPinOff size={40} stroke={1.6} />}
      title={t('errors.notFound.title')}
      description={t('errors.notFound.description')}
      actionLabel={t('errors.notFound.action')}
      brandName={t('app.name')}
      testId="not-found-page"
    />
  );
}
