import { Badge } from '@mantine/core';
import { IconWifi, IconWifi0, IconWifi1, IconWifiOff } from '@tabler/icons-react';
import type { ConnectionIndicator } from '../quality-policy';

const icons = { good: IconWifi, weak: IconWifi1, lost: IconWifiOff, unknown: IconWifi0 } as const;
const colors = { good: 'teal', weak: 'yellow', lost: 'red', unknown: 'gray' } as const;

export interface ConnectionBadgeProps {
  indicator: ConnectionIndicator;
  /** The words shown (e.g. "Conexión débil"). */
  text: string;
  /** What a screen reader says, when it needs more than the text (whose connection). */
  label?: string;
  testId: string;
  className?: string;
  /** Over a video: solid, so it reads on any picture. */
  isOnVideo?: boolean;
}

/** A connection's state in words with an icon (its colour only repeats what they say). */
export function ConnectionBadge({
  indicator,
  text,
  label,
  testId,
  className,
  isOnVideo = false,
}: ConnectionBadgeProps) {
  const Icon = icons[indicator];
  return (
    <Badge
      variant={isOnVideo || indicator === 'lost' ? 'filled' : 'light'}
      color={colors[indicator]}
      autoContrast
      leftSection={<Icon size={14} aria-hidden />}
      className={className}
      role="status"
      aria-label={label ?? text}
      data-testid={testId}
      data-indicator={indicator}
    >
      {text}
    </Badge>
  );
}
