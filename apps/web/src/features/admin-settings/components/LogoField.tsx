import { Group, Image, Input, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../../components/brand/BrandMark';
import { ImageUploadButtons, ImageUploadSteps, useImageUpload } from '../../../components/image-upload';
import { useLanguage } from '../../../lib/ui-state';
import { bytesPerMegabyte, useUploadLimits } from '../../../lib/use-upload-limits';
import { maxLogoBytes, uploadLogo, useDeleteLogo, useRefreshAfterLogo } from '../api/logo';
import classes from './ClinicSettings.module.css';

/**
 * The clinic's logo: choose an image, crop it, upload it (`PUT /settings/logo`) — or remove it
 * (`DELETE /settings/logo`). Saved at once, apart from the section's other fields.
 */
export function LogoField({ logoUrl, clinicName }: { logoUrl: string | null; clinicName: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const refresh = useRefreshAfterLogo();
  const remove = useDeleteLogo();
  const uploadLimits = useUploadLimits();
  // The server takes the smaller of its 2 MB cap and the clinic's upload size limit.
  const maxBytes = Math.min(maxLogoBytes, uploadLimits?.maxFileSize ?? maxLogoBytes);
  const maxText = `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(maxBytes / bytesPerMegabyte)} MB`;
  const flow = useImageUpload({
    maxBytes,
    upload: uploadLogo,
    onUploaded: () => refresh(),
    remove: () => remove.mutateAsync(),
  });

  return (
    <Stack gap="sm" data-testid="settings-logo">
      <Input.Label component="div">{t('clinicSettings.clinic.logo')}</Input.Label>
      <Group gap="lg" align="center" wrap="wrap">
        <div
          className={classes.logoPreview}
          data-testid="settings-logo-current"
          data-has-logo={logoUrl ? 'true' : 'false'}
        >
          {logoUrl ? (
            <Image
              src={logoUrl}
              alt={t('clinicSettings.clinic.logoAlt', { name: clinicName })}
              fit="contain"
              h={72}
              w="auto"
              maw={200}
            />
          ) : (
            <BrandMark size={56} title={t('clinicSettings.clinic.noLogo')} />
          )}
        </div>
        <Stack gap="xs" maw={420}>
          <Text size="sm" c="gray.7">
            {t('clinicSettings.clinic.logoHint', { max: maxText })}
          </Text>
          <Group gap="sm">
            <ImageUploadButtons
              flow={flow}
              testId="settings-logo"
              chooseVariant="light"
              chooseLabel={
                logoUrl ? t('clinicSettings.clinic.logoChange') : t('clinicSettings.clinic.logoChoose')
              }
              removeLabel={logoUrl ? t('clinicSettings.clinic.logoRemove') : null}
              isRemoving={remove.isPending}
            />
          </Group>
        </Stack>
      </Group>
      <ImageUploadSteps
        flow={flow}
        testId="settings-logo"
        uploadingLabel={t('clinicSettings.clinic.logoUploading')}
        savedText={t('clinicSettings.clinic.logoSaved')}
      />
    </Stack>
  );
}
