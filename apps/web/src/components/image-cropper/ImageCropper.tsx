import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCrop, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReactCrop, type PercentCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { cropImage, type CroppedImage } from './crop-image';
import { toDisplayableUrl } from './decode-image';
import { cropQuality, detectImageFormat, minCropSize, outputFormatFor } from './image-formats';
import classes from './ImageCropper.module.css';

export interface ImageCropperProps {
  file: File;
  onCropped: (result: CroppedImage) => void;
  onCancel?: () => void;
  /** Width / height of the crop, e.g. 1 for a profile photo; free when omitted. */
  aspect?: number;
  quality?: number;
}

type Loaded = { file: File; url: string } | { file: File; error: 'decode' };

/**
 * Crops png, jpg/jpeg, bmp, gif, tiff and webp images (TIFF decoded in the browser). The crop is at
 * least 20 × 20 px; the result is a File (quality 0.92) ready for the uploader. When the format
 * cannot be written by the browser the crop is saved as PNG and the interface says so beforehand.
 */
export default function ImageCropper({
  file,
  onCropped,
  onCancel,
  aspect,
  quality = cropQuality,
}: ImageCropperProps) {
  const { t } = useTranslation();
  const format = useMemo(() => detectImageFormat(file), [file]);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [crop, setCrop] = useState<PercentCrop>();
  // Measured in percent of the picture, so it stays right when the picture is shown at another size.
  const [completedCrop, setCompletedCrop] = useState<PercentCrop | null>(null);
  const [naturalSize, setNaturalSize] = useState<{ width: number; height: number } | null>(null);
  const [isCropping, setIsCropping] = useState(false);
  const [hasCropFailed, setHasCropFailed] = useState(false);
  const imageRef = useRef<HTMLImageElement>(null);

  useEffect(() => {
    if (!format) {
      return undefined;
    }
    let url: string | null = null;
    let isCurrent = true;
    toDisplayableUrl(file, format).then(
      (created) => {
        url = created;
        if (isCurrent) {
          setLoaded({ file, url: created });
        } else {
          URL.revokeObjectURL(created);
        }
      },
      () => {
        if (isCurrent) {
          setLoaded({ file, error: 'decode' });
        }
      },
    );
    return () => {
      isCurrent = false;
      if (url) {
        URL.revokeObjectURL(url);
      }
    };
  }, [file, format]);

  if (!format) {
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle />}
        data-testid="cropper-error"
        title={t('cropper.unsupportedTitle')}
      >
        {t('cropper.unsupported')}
      </Alert>
    );
  }
  const current = loaded?.file === file ? loaded : null;
  if (!current) {
    return (
      <Center mih={200} data-testid="cropper-loading">
        <Loader aria-label={t('cropper.loading')} />
      </Center>
    );
  }
  if ('error' in current) {
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle />}
        data-testid="cropper-error"
        title={t('cropper.decodeFailedTitle')}
      >
        {t('cropper.decodeFailed')}
      </Alert>
    );
  }

  const output = outputFormatFor(format);

  const handleImageLoad = () => {
    const image = imageRef.current;
    if (!image) {
      return;
    }
    setNaturalSize({ width: image.naturalWidth, height: image.naturalHeight });
    // Start with a centred crop covering most of the picture (the largest one of the aspect, if any).
    let width = 80;
    let height = 80;
    if (aspect) {
      const imageAspect = image.naturalWidth / Math.max(1, image.naturalHeight);
      width = aspect <= imageAspect ? (90 * aspect) / imageAspect : 90;
      height = aspect <= imageAspect ? 90 : (90 * imageAspect) / aspect;
    }
    const initial: PercentCrop = { unit: '%', width, height, x: (100 - width) / 2, y: (100 - height) / 2 };
    setCrop(initial);
    setCompletedCrop(initial);
  };

  const handleCrop = async () => {
    const image = imageRef.current;
    if (!image || !completedCrop || completedCrop.width <= 0 || completedCrop.height <= 0) {
      return;
    }
    setIsCropping(true);
    setHasCropFailed(false);
    try {
      onCropped(await cropImage(image, completedCrop, file.name, format, quality));
    } catch {
      setHasCropFailed(true);
    } finally {
      setIsCropping(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="image-cropper" data-format={format}>
      <div className={classes.stage}>
        <ReactCrop
          crop={crop}
          onChange={(_, percentCrop) => setCrop(percentCrop)}
          onComplete={(_, percentCrop) => setCompletedCrop(percentCrop)}
          minWidth={minCropSize}
          minHeight={minCropSize}
          aspect={aspect}
          keepSelection
          ruleOfThirds
          ariaLabels={{
            cropArea: t('cropper.aria.cropArea'),
            nwDragHandle: t('cropper.aria.nw'),
            nDragHandle: t('cropper.aria.n'),
            neDragHandle: t('cropper.aria.ne'),
            eDragHandle: t('cropper.aria.e'),
            seDragHandle: t('cropper.aria.se'),
            sDragHandle: t('cropper.aria.s'),
            swDragHandle: t('cropper.aria.sw'),
            wDragHandle: t('cropper.aria.w'),
          }}
        >
          <img
            ref={imageRef}
            src={current.url}
            alt={t('cropper.imageAlt', { name: file.name })}
            onLoad={handleImageLoad}
            className={classes.image}
          />
        </ReactCrop>
      </div>
      {output.isConverted ? (
        <Alert variant="light" color="blue" icon={<IconInfoCircle />} data-testid="cropper-conversion-notice">
          {t('cropper.convertNotice', { from: format.toUpperCase(), to: output.format.toUpperCase() })}
        </Alert>
      ) : null}
      {hasCropFailed ? (
        <Text c="red.8" size="sm">
          {t('cropper.cropFailed')}
        </Text>
      ) : null}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="gray.7" data-testid="cropper-size">
          {completedCrop && naturalSize
            ? t('cropper.size', {
                width: Math.round((completedCrop.width / 100) * naturalSize.width),
                height: Math.round((completedCrop.height / 100) * naturalSize.height),
              })
            : t('cropper.hint')}
        </Text>
        <Group gap="xs">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} data-testid="cropper-cancel">
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button
            leftSection={<IconCrop size={18} />}
            onClick={() => void handleCrop()}
            loading={isCropping}
            disabled={!completedCrop}
            data-testid="cropper-apply"
          >
            {t('cropper.apply')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
