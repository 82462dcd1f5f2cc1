import '@mantine/core/styles/Anchor.layer.css';
import { Anchor, Badge, Code, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { AuditEvent } from '@telemedicina/shared/admin';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import sectionClasses from '../../../components/section-page/SectionPage.module.css';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import classes from './Audit.module.css';
import { outcomeColors } from './outcome-colors';
import { CopyableId } from '../../../components/copyable-id/CopyableId';
import { useAuditLabels } from '../audit-labels';

/** The details object as indented JSON text (rendered as text, never as HTML). */
export function formatDetails(details: Record<string, unknown>): string {
  return JSON.stringify(details, null, 2);
}

/**
 * One event in full: when (the viewer's zone and UTC), who, from where, on what, and the details
 * JSON. Open while the address has `event=<id>` of a row on the current page; closing removes it.
 */
export function AuditEventDrawer({ event, timeZone }: { event: AuditEvent | null; timeZone: string }) {
  const { t } = useTranslation();
  const { actionLabel, targetTypeLabel } = useAuditLabels();
  const language = useLanguage();
  const [searchParams, setSearchParams] = useSearchParams();
  const isWide = useMediaQuery('(min-width: 48em)', true) ?? true;

  const handleClose = () => {
    const next = new URLSearchParams(searchParams);
    next.delete('event');
    setSearchParams(next);
  };

  const recordHref = (current: AuditEvent) => {
    const next = new URLSearchParams();
    if (current.targetType) {
      next.set('targetType', current.targetType);
    }
    if (current.targetId) {
      next.set('targetId', current.targetId);
    }
    return `?${next.toString()}`;
  };

  return (
    <Drawer
      opened={event !== null}
      onClose={handleClose}
      position={isWide ? 'right' : 'bottom'}
      size={isWide ? 560 : '88%'}
      title={
        <Title order={2} size="h4">
          {t('audit.details.title')}
        </Title>
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="audit-details"
    >
      {event ? (
        <Stack gap="lg">
          <Group gap="sm" wrap="wrap">
            <Stack gap={0}>
              <Text fw={700} className={classes.wrap} data-testid="audit-details-action">
                {actionLabel(event.action)}
              </Text>
              <Text size="xs" c="gray.7" ff="monospace" className={classes.wrap}>
                {event.action}
              </Text>
            </Stack>
            <Badge variant="light" tt="none" color={outcomeColors[event.outcome]}>
              {t(`audit.outcome.${event.outcome}`)}
            </Badge>
          </Group>
          <dl className={sectionClasses.facts}>
            <dt>{t('audit.details.at')}</dt>
            <dd>
              {formatDateTime(event.at, language, timeZone)}
              <Text span size="xs" c="gray.7" fw={400} ff="monospace" className={classes.block}>
                {event.at}
              </Text>
            </dd>
            <dt>{t('audit.details.actor')}</dt>
            <dd data-testid="audit-details-actor">
              {event.actor
                ? `${event.actor.name} <${event.actor.email}>`
                : event.actorUserId
                  ? t('audit.deletedUser')
                  : t('audit.anonymous')}
              {event.actorUserId ? <CopyableId value={event.actorUserId} /> : null}
            </dd>
            <dt>{t('audit.details.record')}</dt>
            <dd className={classes.wrap}>
              {event.targetType ? (
                <>
                  {targetTypeLabel(event.targetType)}
                  {event.targetId ? (
                    <CopyableId value={event.targetId} testId="audit-details-target-id" />
                  ) : null}
                  <Anchor
                    component={Link}
                    to={recordHref(event)}
                    size="xs"
                    fw={500}
                    data-testid="audit-details-record-link"
                  >
                    {t('audit.details.recordEvents')}
                  </Anchor>
                </>
              ) : (
                '—'
              )}
            </dd>
            <dt>{t('audit.details.ip')}</dt>
            <dd className={classes.mono}>{event.actorIp ?? '—'}</dd>
            <dt>{t('audit.details.userAgent')}</dt>
            <dd className={classes.wrap}>
              <Text span size="xs" fw={400}>
                {event.userAgent ?? '—'}
              </Text>
            </dd>
            <dt>{t('audit.details.requestId')}</dt>
            <dd>{event.requestId ? <CopyableId value={event.requestId} /> : '—'}</dd>
          </dl>
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {t('audit.details.details')}
            </Text>
            <Code block className={classes.json} data-testid="audit-details-json">
              {formatDetails(event.details)}
            </Code>
          </Stack>
        </Stack>
      ) : null}
    </Drawer>
  );
}
