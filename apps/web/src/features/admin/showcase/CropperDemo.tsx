import { Alert, Button, Center, FileButton, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPhotoUp, IconSend } from '@tabler/icons-react';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { croppableAccept, LazyImageCropper, type CroppedImage } from '../../../components/image-cropper';
import { formatBytes } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';

/** Choose an image, crop it, and hand the result to the uploader above. */
export function CropperDemo({ onSendToUploader }: { onSendToUploader: (file: File) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<CroppedImage | null>(null);
  const [isSent, setIsSent] = useState(false);
  const previewUrl = useMemo(() => (result ? URL.createObjectURL(result.file) : null), [result]);
  useEffect(
    () => () => {
      if (previewUrl) {
        URL.revokeObjectURL(previewUrl);
      }
    },
    [previewUrl],
  );

  const handleChoose = (chosen: File | null) => {
    setFile(chosen);
    setResult(null);
    setIsSent(false);
  };

  return (
    <Stack gap="md">
      <Group gap="sm">
        <FileButton
          onChange={handleChoose}
          accept={croppableAccept.join(',')}
          inputProps={{ 'data-testid': 'cropper-input' } as React.InputHTMLAttributes<HTMLInputElement>}
        >
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconPhotoUp size={18} />}
              data-testid="cropper-choose"
            >
              {t('showcase.cropper.choose')}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="gray.7">
          {t('showcase.cropper.formats')}
        </Text>
      </Group>

      {file && !result ? (
        <Suspense
          fallback={
            <Center mih={160}>
              <Loader aria-label={t('cropper.loading')} />
            </Center>
          }
        >
          <LazyImageCropper file={file} onCropped={setResult} onCancel={() => handleChoose(null)} />
        </Suspense>
      ) : null}

      {result && previewUrl ? (
        <Stack gap="sm" data-testid="cropper-result" data-type={result.file.type}>
          <Group align="flex-start" gap="md" wrap="wrap">
            <Image
              src={previewUrl}
              alt={t('showcase.cropper.resultAlt')}
              w={160}
              fit="contain"
              radius="md"
              bd="1px solid var(--mantine-color-gray-3)"
            />
            <Stack gap={4}>
              <Text fw={600} data-testid="cropper-result-name">
                {result.file.name}
              </Text>
              <Text size="sm" c="gray.7">
                {t('cropper.size', { width: result.width, height: result.height })} ·{' '}
                {formatBytes(result.file.size, language)} · {result.file.type}
              </Text>
            </Stack>
          </Group>
          {result.convertedFrom ? (
            <Alert
              variant="light"
              color="blue"
              icon={<IconInfoCircle />}
              data-testid="cropper-result-converted"
            >
              {t('cropper.converted', {
                from: result.convertedFrom.toUpperCase(),
                to: result.outputFormat.toUpperCase(),
              })}
            </Alert>
          ) : null}
          <Group gap="sm">
            <Button
              leftSection={<IconSend size={18} />}
              onClick={() => {
                onSendToUploader(result.file);
                setIsSent(true);
              }}
              disabled={isSent}
              data-testid="cropper-send"
            >
              {isSent ? t('showcase.cropper.sent') : t('showcase.cropper.send')}
            </Button>
            <Button variant="default" onClick={() => setResult(null)}>
              {t('showcase.cropper.again')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}
