import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { withdrawConsentRequestSchema, type PatientConsent } from '@telemedicina/shared/consents';
import { apiBasePath } from '@telemedicina/shared/api';
import { documentFileUrl } from '@telemedicina/shared/documents';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { AppModal } from '../../../components/modal/AppModal';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useClock } from '../../../lib/use-clock';
import { useLanguage } from '../../../lib/ui-state';
import { usePatientConsents } from '../api/patient-consents';
import { useWithdrawConsent } from '../api/withdraw-consent';

const stateColors = { signed: 'teal', outdated: 'yellow', withdrawn: 'red', not_signed: 'gray' } as const;

/**
 * `/portal/consents`: the clinic's consent documents and where the patient stands with each:
 * sign (or sign the new version), open the signed PDF (kept in their documents), withdraw.
 */
export function MyConsentsPage() {
  const { t } = useTranslation();
  const patientId = useMe().data?.user.id;
  const consents = usePatientConsents(patientId);
  const errorText = useApiErrorText();
  const location = useLocation();
  const justSigned = (location.state as { signed?: boolean } | null)?.signed === true;
  const [withdrawing, setWithdrawing] = useState<PatientConsent | null>(null);

  return (
    <div className={pageClasses.page} data-testid="my-consents-page">
      <Stack gap="lg" maw={820}>
        <Stack gap={4}>
          <Title order={1} className={pageClasses.title}>
            {t('consents.title')}
          </Title>
          <Text c="gray.7">{t('consents.description')}</Text>
        </Stack>
        {justSigned ? (
          <Alert color="teal" variant="light" data-testid="consent-signed">
            {t('consents.signed')}
          </Alert>
        ) : null}
        {consents.isPending ? <Loader /> : null}
        {consents.isError ? <Alert color="red">{errorText(consents.error)}</Alert> : null}
        {consents.data?.items.length === 0 ? <Text>{t('consents.none')}</Text> : null}
        {patientId !== undefined
          ? consents.data?.items.map((item) => (
              <ConsentRow
                key={item.documentId}
                item={item}
                patientId={patientId}
                onWithdraw={() => setWithdrawing(item)}
              />
            ))
          : null}
      </Stack>
      {patientId !== undefined ? (
        <WithdrawModal consent={withdrawing} patientId={patientId} onClose={() => setWithdrawing(null)} />
      ) : null}
    </div>
  );
}

function ConsentRow({
  item,
  patientId,
  onWithdraw,
}: {
  item: PatientConsent;
  patientId: string;
  onWithdraw: () => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const language = useLanguage();
  const latest = item.latest;
  const title = language === 'en' ? item.titleEn : item.titleEs;
  const stateText =
    item.state === 'signed' && latest !== null
      ? t('consents.states.signed', { version: latest.version, date: clock.dateTime(latest.signedAt) })
      : item.state === 'withdrawn' && latest?.withdrawnAt
        ? t('consents.states.withdrawn', { date: clock.dateTime(latest.withdrawnAt) })
        : t(`consents.states.${item.state === 'outdated' ? 'outdated' : 'not_signed'}`, {
            version: item.currentVersion,
          });
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="consent-row"
      data-kind={item.kind}
      data-state={item.state}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
            <Text fw={700}>{title}</Text>
            <Group gap={6}>
              <Badge variant="light" color="gray" tt="none">
                {t(`consents.kinds.${item.kind}`)}
              </Badge>
              {item.required ? (
                <Badge variant="light" color="blue" tt="none">
                  {t('consents.required')}
                </Badge>
              ) : null}
            </Group>
          </Stack>
          <Badge
            color={stateColors[item.state]}
            variant="light"
            tt="none"
            size="lg"
            data-testid="consent-state"
          >
            {stateText}
          </Badge>
        </Group>
        <Group gap="sm" wrap="wrap">
          {item.state !== 'signed' ? (
            <Button
              component={Link}
              to={`/portal/consents/${item.documentId}`}
              size="sm"
              data-testid="consent-sign"
            >
              {item.state === 'outdated' ? t('consents.signAgain') : t('consents.sign')}
            </Button>
          ) : null}
          {latest?.chartDocumentId ? (
            <Anchor
              href={documentFileUrl(apiBasePath, patientId, latest.chartDocumentId, { download: false })}
              target="_blank"
              rel="noopener"
              size="sm"
              data-testid="consent-pdf"
            >
              {t('consents.openPdf')}
            </Anchor>
          ) : null}
          {latest !== null && latest.withdrawnAt === null ? (
            <Button
              variant="subtle"
              color="red"
              size="sm"
              onClick={onWithdraw}
              data-testid="consent-withdraw"
            >
              {t('consents.withdraw')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

function WithdrawModal({
  consent,
  patientId,
  onClose,
}: {
  consent: PatientConsent | null;
  patientId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const withdraw = useWithdrawConsent(patientId);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const close = () => {
    withdraw.reset();
    setReason('');
    setReasonError(null);
    onClose();
  };
  const confirm = () => {
    const parsed = withdrawConsentRequestSchema.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(t((parsed.error.issues[0]?.message ?? 'validation.invalid') as ParseKeys));
      return;
    }
    const signatureId = consent?.latest?.id;
    if (signatureId === undefined) {
      return;
    }
    withdraw.mutate({ signatureId, reason: parsed.data.reason }, { onSuccess: close });
  };
  return (
    <AppModal opened={consent !== null} onClose={close} title={t('consents.withdrawTitle')}>
      <Stack gap="md">
        <Text size="sm">{t('consents.withdrawBody')}</Text>
        <Textarea
          label={t('consents.withdrawReason')}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={reasonError}
          autosize
          minRows={2}
          maxLength={500}
          data-testid="consent-withdraw-reason"
        />
        {withdraw.isError ? <Alert color="red">{errorText(withdraw.error)}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('consents.cancel')}
          </Button>
          <Button
            color="red"
            onClick={confirm}
            loading={withdraw.isPending}
            data-testid="consent-withdraw-confirm"
          >
            {t('consents.withdrawConfirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
