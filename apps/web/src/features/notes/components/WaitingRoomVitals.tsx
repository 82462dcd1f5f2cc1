import '@mantine/core/styles/Paper.layer.css';
import { Button, Collapse, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconHeartbeat } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNote } from '../api/note';
import { VitalsForm } from './VitalsForm';

/** In the waiting room, the patient can report their vitals while they wait (folded until opened). */
export function WaitingRoomVitals({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const envelope = useNote(appointmentId);
  const [isOpen, setIsOpen] = useState(false);
  const vitals = envelope.data?.vitals ?? null;
  if (envelope.data?.note?.status === 'signed') {
    return null;
  }
  return (
    <Paper withBorder radius="md" p="md" data-testid="waiting-vitals">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
            <IconHeartbeat size={22} aria-hidden />
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Title order={2} size="h5">
                {t('notes.vitals.title')}
              </Title>
              <Text size="sm" c="gray.7">
                {vitals ? t('notes.vitals.alreadyReported') : t('notes.vitals.waitingHint')}
              </Text>
            </Stack>
          </Group>
          <Button
            variant="light"
            size="xs"
            rightSection={isOpen ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
            onClick={() => setIsOpen((value) => !value)}
            aria-expanded={isOpen}
            data-testid="waiting-vitals-toggle"
          >
            {vitals ? t('notes.vitals.edit') : t('notes.vitals.report')}
          </Button>
        </Group>
        <Collapse expanded={isOpen}>
          {isOpen && envelope.data ? (
            <VitalsForm appointmentId={appointmentId} initial={vitals} onSaved={() => setIsOpen(false)} />
          ) : null}
        </Collapse>
      </Stack>
    </Paper>
  );
}
