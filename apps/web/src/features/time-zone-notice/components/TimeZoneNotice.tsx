import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceTimeZone, formatTime, formatTimeZoneName, zonesDiffer } from '../../../lib/clock';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { useSwitchTimeZone } from '../api/switch-time-zone';
import classes from './TimeZoneNotice.module.css';

const storageKey = (userId: string) => `telemedicina.timeZoneNotice.${userId}`;

/** What was dismissed for this account on this device: "device zone|account zone". */
function dismissedPair(userId: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(userId));
  } catch {
    return null;
  }
}

function rememberDismissed(userId: string, pair: string): void {
  try {
    window.localStorage.setItem(storageKey(userId), pair);
  } catch {
    // Private browsing without storage: the notice comes back on the next page load, no harm.
  }
}

/**
 * Said once, plainly, when this device's clock is in another zone than the account's: every time
 * in the app is the account's, and the account can switch to the device's zone in one click.
 * Dismissing it is remembered for this account and this pair of zones (travelling again to
 * another zone, or changing the account's, shows it again).
 */
export function TimeZoneNotice() {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const me = useMe().data;
  const switchZone = useSwitchTimeZone();
  const [dismissed, setDismissed] = useState<string | null>(() => (me ? dismissedPair(me.user.id) : null));
  if (!me) {
    return null;
  }
  const device = deviceTimeZone();
  const account = me.user.timeZone;
  const pair = `${device}|${account}`;
  const now = new Date();
  if (!account || !zonesDiffer(device, account, now) || dismissed === pair) {
    return null;
  }
  const deviceName = formatTimeZoneName(device, language);
  const handleDismiss = () => {
    rememberDismissed(me.user.id, pair);
    setDismissed(pair);
  };
  return (
    <Alert
      color="blue"
      variant="light"
      radius={0}
      // Information to read, not an emergency: a labelled region, not role="alert" (announced at once).
      role="region"
      icon={<IconClock aria-hidden />}
      title={t('timeZoneNotice.title')}
      className={classes.notice}
      data-testid="time-zone-notice"
    >
      <Stack gap="xs">
        <Text size="sm">
          {t('timeZoneNotice.text', {
            device: deviceName,
            account: formatTimeZoneName(account, language),
            deviceNow: formatTime(now, language, device),
            accountNow: formatTime(now, language, account),
          })}
        </Text>
        {switchZone.isError ? (
          <Text size="sm" c="red.8" role="alert">
            {errorText(switchZone.error)}
          </Text>
        ) : null}
        <Group gap="xs">
          <Button
            size="xs"
            loading={switchZone.isPending}
            onClick={() => switchZone.mutate(device)}
            data-testid="time-zone-notice-switch"
          >
            {t('timeZoneNotice.switch', { zone: deviceName })}
          </Button>
          <Button size="xs" variant="default" onClick={handleDismiss} data-testid="time-zone-notice-dismiss">
            {t('timeZoneNotice.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
