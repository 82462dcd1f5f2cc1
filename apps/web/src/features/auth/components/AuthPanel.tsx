import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './AuthLayout.module.css';

/** One step of the authentication area: its title, a short explanation and the content. */
export function AuthPanel({
  title,
  description,
  children,
  testId,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap="lg" data-testid={testId}>
      <div>
        <Title order={2} className={classes.panelTitle}>
          {title}
        </Title>
        {description ? (
          <Text size="sm" c="gray.7" mt={6}>
            {description}
          </Text>
        ) : null}
      </div>
      {children}
    </Stack>
  );
}
