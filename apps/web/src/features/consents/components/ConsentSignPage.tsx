import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
// The checkbox's label beside its box (without it the label fell below the box).
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError, toFieldErrors } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { useConsentDocument } from '../api/consent-document';
import { useSignConsent } from '../api/sign-consent';
import classes from './Consents.module.css';
import { SignaturePadField } from './SignaturePadField';

/**
 * `/portal/consents/:documentId`: the patient reads the current version in their language and
 * signs it, drawn (signature_pad) or typed, after ticking that they read it. The server keeps
 * the signed PDF in their documents; a newer version published meanwhile is explained, not lost.
 */
export function ConsentSignPage() {
  const { t } = useTranslation();
  const { documentId = '' } = useParams();
  const navigate = useNavigate();
  const language = useLanguage() === 'en' ? 'en' : 'es';
  const me = useMe().data;
  const document = useConsentDocument(documentId);
  const sign = useSignConsent(documentId, me?.user.id);
  const errorText = useApiErrorText();
  const [method, setMethod] = useState<'drawn' | 'typed'>('drawn');
  const [png, setPng] = useState<string | null>(null);
  const [typedName, setTypedName] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (document.isPending) {
    return <Loader />;
  }
  if (document.isError) {
    return <Alert color="red">{errorText(document.error)}</Alert>;
  }
  const current = document.data.current;
  const title = language === 'en' ? current.titleEn : current.titleEs;
  const body = language === 'en' ? current.bodyEn : current.bodyEs;
  const canSubmit = agreed && (method === 'drawn' ? png !== null : typedName.trim() !== '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    sign.mutate(
      {
        versionId: current.id,
        language,
        method,
        ...(method === 'drawn' ? { signaturePng: png ?? '' } : { typedName: typedName.trim() }),
      },
      {
        onSuccess: () => void navigate('/portal/consents', { state: { signed: true } }),
        onError: (error) => {
          const fields = toFieldErrors(error instanceof ApiError ? error.details : null);
          const reason =
            error instanceof ApiError &&
            typeof (error.details as { reason?: unknown } | null)?.reason === 'string'
              ? (error.details as { reason: string }).reason
              : null;
          const message = fields === null ? null : Object.values(fields)[0];
          setProblem(
            message !== undefined && message !== null
              ? t(message as 'consents.signatureNotPng')
              : reason !== null
                ? t(reason as 'consents.outdatedVersion')
                : errorText(error),
          );
          if (reason === 'consents.outdatedVersion') {
            void document.refetch();
          }
        },
      },
    );
  };

  return (
    <div className={pageClasses.page} data-testid="consent-sign-page">
      <Stack gap="lg" maw={760}>
        <Anchor component={Link} to="/portal/consents" size="sm">
          {t('consents.back')}
        </Anchor>
        <Stack gap={4}>
          <Title order={1} className={pageClasses.title} data-testid="consent-title">
            {title}
          </Title>
          <Text c="gray.7" size="sm">
            {t('consents.version', { version: current.version })} · {t('consents.readBelow')}
          </Text>
        </Stack>
        <Paper withBorder radius="md" p="lg">
          <Text className={classes.body} data-testid="consent-body">
            {body}
          </Text>
        </Paper>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Stack gap={6}>
              <Text fw={600}>{t('consents.method')}</Text>
              <SegmentedControl
                fullWidth
                value={method}
                onChange={(value) => setMethod(value === 'typed' ? 'typed' : 'drawn')}
                data={[
                  { value: 'drawn', label: t('consents.methods.drawn') },
                  { value: 'typed', label: t('consents.methods.typed') },
                ]}
                data-testid="consent-method"
              />
            </Stack>
            {method === 'drawn' ? (
              <SignaturePadField onChange={setPng} />
            ) : (
              <TextInput
                label={t('consents.typedName')}
                description={t('consents.typedNameHint')}
                value={typedName}
                maxLength={120}
                autoComplete="name"
                onChange={(event) => setTypedName(event.currentTarget.value)}
                data-testid="consent-typed-name"
              />
            )}
            <Checkbox
              checked={agreed}
              onChange={(event) => setAgreed(event.currentTarget.checked)}
              label={t('consents.agree')}
              data-testid="consent-agree"
            />
            {problem !== null ? (
              <Alert color="red" variant="light" data-testid="consent-error">
                {problem}
              </Alert>
            ) : null}
            <Button type="submit" disabled={!canSubmit} loading={sign.isPending} data-testid="consent-submit">
              {t('consents.submit')}
            </Button>
          </Stack>
        </form>
      </Stack>
    </div>
  );
}
