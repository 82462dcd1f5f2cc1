import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * An identifier on a detail view: secondary (small, grey, whole — never cut), with a button that
 * copies it. Lists never show ids; a person reads names and labels there.
 */
export function CopyableId({ value, testId }: { value: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" align="center" data-testid={testId}>
      <Text span size="xs" c="gray.7" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('common.copied') : t('common.copyId')} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              onClick={copy}
              aria-label={copied ? t('common.copied') : t('common.copyId')}
            >
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
