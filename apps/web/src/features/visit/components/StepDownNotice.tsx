import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAntennaBars2, IconMessage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { QualityLevel } from '../quality-policy';

export interface StepDownNoticeProps {
  /** This page's own level. */
  level: QualityLevel;
  /** Others who stepped down to sound or chat only: their name and level. */
  others: readonly { key: string; name: string; level: QualityLevel }[];
  /** On a phone the chat is one tap away: offered when the call goes on by chat only. */
  onOpenChat?: () => void;
}

const isSteppedDown = (level: QualityLevel): level is 'audio_only' | 'chat_only' =>
  level === 'audio_only' || level === 'chat_only';

/**
 * Tells people in plain words when a connection cannot carry video (or even sound): "Su conexión
 * es débil: seguimos solo con audio." on their own page, "La conexión de Ana es débil: …" on the
 * others'. It disappears once the level is back up.
 */
export function StepDownNotice({ level, others, onOpenChat }: StepDownNoticeProps) {
  const { t } = useTranslation();
  const lines: { key: string; text: string }[] = [];
  if (isSteppedDown(level)) {
    lines.push({ key: 'self', text: t(`visit.call.stepDown.self.${level}`) });
  }
  for (const other of others) {
    if (isSteppedDown(other.level)) {
      lines.push({
        key: other.key,
        text: t(`visit.call.stepDown.other.${other.level}`, { name: other.name }),
      });
    }
  }
  if (lines.length === 0) {
    return null;
  }
  const isChatOnly = level === 'chat_only' || others.some((other) => other.level === 'chat_only');
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAntennaBars2 size={20} aria-hidden />}
      py={6}
      data-testid="visit-call-step-down"
      data-level={level}
    >
      <Stack gap={4} align="flex-start">
        {lines.map((line) => (
          <Text key={line.key} size="sm">
            {line.text}
          </Text>
        ))}
        {isChatOnly && onOpenChat ? (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconMessage size={14} />}
            onClick={onOpenChat}
          >
            {t('visit.call.openChat')}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}
