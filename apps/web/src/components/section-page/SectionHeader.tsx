import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './SectionPage.module.css';

/** Title, one-line description and optional actions at the top of every admin section. */
export function SectionHeader({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children?: ReactNode;
}) {
  return (
    <div className={classes.header}>
      <Stack gap={4} className={classes.headerText}>
        <Title order={1} className={classes.title}>
          {title}
        </Title>
        <Text c="gray.7">{description}</Text>
      </Stack>
      {children}
    </div>
  );
}
