import '@mantine/core/styles/Alert.layer.css';
import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import { ApiError } from '../../../lib/api-client';
import { hasChosenLanguageThisSession } from '../../../lib/i18n';
import { uiState } from '../../../lib/ui-state';
import { redeemGuestInvite } from '../api/guests';
import { VisitExperience } from './VisitExperience';
import classes from './Visit.module.css';

const guestVisitKey = 'telemedicina.guest.appointmentId';

type GuestStart =
  { kind: 'redeeming' } | { kind: 'ready'; appointmentId: string } | { kind: 'failed'; code: string };

/**
 * `/guest#<token>` (public): an interpreter or companion invited by the doctor. The token is read
 * from the fragment (never sent to the server in a URL), removed from the address bar, redeemed
 * once (the server sets the guest cookie), then the guest goes through the device check and the
 * waiting room like the patient, in the language of the invitation. A reload keeps the visit.
 */
export function GuestPage() {
  const { t } = useTranslation();
  const [start, setStart] = useState<GuestStart>({ kind: 'redeeming' });

  useEffect(() => {
    let active = true;
    const token = window.location.hash.replace(/^#/, '');
    if (token !== '') {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    void (async () => {
      if (token === '') {
        const stored = readStored();
        setStart(
          stored ? { kind: 'ready', appointmentId: stored } : { kind: 'failed', code: 'GUEST_LINK_MISSING' },
        );
        return;
      }
      try {
        const answer = await redeemGuestInvite(token);
        if (!active) {
          return;
        }
        try {
          sessionStorage.setItem(guestVisitKey, answer.appointmentId);
        } catch {
          // Private mode: a reload needs the link again.
        }
        if (!hasChosenLanguageThisSession()) {
          uiState.getState().setLanguage(answer.language);
        }
        setStart({ kind: 'ready', appointmentId: answer.appointmentId });
      } catch (error) {
        if (active) {
          setStart({ kind: 'failed', code: error instanceof ApiError ? error.code : 'UNEXPECTED' });
        }
      }
    })();
    return () => {
      active = false;
    };
  }, []);

  return (
    <div className={classes.page} data-testid="guest-page">
      <Stack gap="md">
        <Group justify="space-between">
          <Group gap="xs">
            <BrandMark size={32} />
            <Text fw={700}>{t('app.name')}</Text>
          </Group>
          <LanguageSwitcher />
        </Group>
        {start.kind === 'redeeming' ? <Loader /> : null}
        {start.kind === 'failed' ? (
          <Alert color="red" variant="light" title={t('guest.failedTitle')} data-testid="guest-error">
            {start.code === 'GUEST_LINK_USED'
              ? t('guest.used')
              : start.code === 'GUEST_LINK_EXPIRED'
                ? t('guest.expired')
                : start.code === 'GUEST_LINK_MISSING'
                  ? t('guest.missing')
                  : t('guest.invalid')}
          </Alert>
        ) : null}
        {start.kind === 'ready' ? <VisitExperience appointmentId={start.appointmentId} isGuest /> : null}
      </Stack>
    </div>
  );
}

function readStored(): string | null {
  try {
    return sessionStorage.getItem(guestVisitKey);
  } catch {
    return null;
  }
}
