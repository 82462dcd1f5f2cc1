import '@mantine/core/styles/Input.layer.css';
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LocalMedia } from '../hooks/use-local-media';

export interface DevicePickersProps {
  media: Pick<
    LocalMedia,
    'cameras' | 'microphones' | 'cameraId' | 'microphoneId' | 'setCameraId' | 'setMicrophoneId'
  >;
  /** Test ids `<prefix>-camera` and `<prefix>-microphone`. */
  testIdPrefix: string;
  /** Smaller fields (the preview's side column); Mantine's default otherwise. */
  size?: 'xs';
}

/**
 * The camera and microphone pickers (the device check, the doctor's waiting-room preview): each
 * device by its label, or "Device n" before permission gave labels; disabled with "no device" when
 * there is none. Two siblings: the caller lays them out.
 */
export function DevicePickers({ media, testIdPrefix, size }: DevicePickersProps) {
  const { t } = useTranslation();
  const optionsOf = (devices: MediaDeviceInfo[]) =>
    devices.length > 0
      ? devices.map((device, index) => ({
          value: device.deviceId,
          label: device.label || t('visit.check.deviceN', { n: index + 1 }),
        }))
      : [{ value: '', label: t('visit.check.noDevice') }];
  return (
    <>
      <NativeSelect
        size={size}
        label={t('visit.check.camera')}
        data={optionsOf(media.cameras)}
        value={media.cameraId ?? ''}
        onChange={(event) => media.setCameraId(event.currentTarget.value)}
        disabled={media.cameras.length === 0}
        data-testid={`${testIdPrefix}-camera`}
      />
      <NativeSelect
        size={size}
        label={t('visit.check.microphone')}
        data={optionsOf(media.microphones)}
        value={media.microphoneId ?? ''}
        onChange={(event) => media.setMicrophoneId(event.currentTarget.value)}
        disabled={media.microphones.length === 0}
        data-testid={`${testIdPrefix}-microphone`}
      />
    </>
  );
}
