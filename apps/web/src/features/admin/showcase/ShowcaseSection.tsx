import { Grid, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A settings-style row: title and explanation on the left, the live component on the right. */
export function ShowcaseSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Grid
      gap={{ base: 'sm', md: 'xl' }}
      component="section"
      aria-labelledby={`${id}-title`}
      data-testid={`showcase-${id}`}
    >
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap={6}>
          <Title order={2} size="h4" id={`${id}-title`}>
            {title}
          </Title>
          <Text size="sm" c="gray.7">
            {description}
          </Text>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          {children}
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
